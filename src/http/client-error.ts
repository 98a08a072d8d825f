import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ApiError, HeadersTooLargeError, MalformedRequestError, PayloadTooLargeError, RequestTimeoutError } from '../lib/errors.js';
import { newRequestId, problemBody } from './problem.js';

/** The problem for what Node's HTTP parser could not read; the codes are those its own answers stand for. */
function problemFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new HeadersTooLargeError();
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RequestTimeoutError();
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return new PayloadTooLargeError('16 KiB of chunk extensions');
  return new MalformedRequestError();
}

/**
 * The server's 'clientError' listener: a request Node cannot parse never reaches Koa, and Node's own answer
 * has an empty body. This answers it as every other error is, problem+json with a request id, and closes the
 * connection (what follows on it cannot be read either).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const problem = problemFor(error.code);
  const requestId = newRequestId();
  const body = JSON.stringify(problemBody(problem, requestId));
  socket.end(
    [
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
