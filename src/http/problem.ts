import { randomFillSync } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../lib/logger.js';
import { ApiError, InternalError, MalformedJsonError, PayloadTooLargeError, ValidationFailedError } from '../lib/errors.js';
import type { RequestState } from './state.js';

const PROBLEM_BASE = 'https://socialgate.dev/problems/';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const randomPool = Buffer.alloc(4000);
let randomOffset = randomPool.length;

/**
 * `req_` and a lowercase ULID, as newId('req') makes, without its cost: the ulid package draws each of the 16
 * random characters with a call into crypto of its own (~80 µs an id whenever the millisecond is new, which
 * under load is most requests). This takes 10 bytes from a pool refilled 400 ids at a time. Request ids need
 * not be monotonic within a millisecond, only unique and time-sortable to the millisecond.
 */
export function newRequestId(): string {
  if (randomOffset + 10 > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  let time = Date.now();
  let id = '';
  for (let i = 0; i < 10; i += 1) {
    id = CROCKFORD[time % 32]! + id;
    time = Math.floor(time / 32);
  }
  // 80 random bits, 5 bits a character.
  for (let i = randomOffset; i < randomOffset + 10; i += 5) {
    const [b0, b1, b2, b3, b4] = [randomPool[i]!, randomPool[i + 1]!, randomPool[i + 2]!, randomPool[i + 3]!, randomPool[i + 4]!];
    id +=
      CROCKFORD[b0 >> 3]! +
      CROCKFORD[((b0 & 7) << 2) | (b1 >> 6)]! +
      CROCKFORD[(b1 >> 1) & 31]! +
      CROCKFORD[((b1 & 1) << 4) | (b2 >> 4)]! +
      CROCKFORD[((b2 & 15) << 1) | (b3 >> 7)]! +
      CROCKFORD[(b3 >> 2) & 31]! +
      CROCKFORD[((b3 & 3) << 3) | (b4 >> 5)]! +
      CROCKFORD[b4 & 31]!;
  }
  randomOffset += 10;
  return `req_${id}`;
}

/** Errors from the body parser (http-errors) carry a status and an `expose` flag but no code of ours. */
function fromBodyParser(error: unknown, jsonLimit: string): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type } = error as { status?: number; type?: string };
  if (status === 413 || type === 'entity.too.large') return new PayloadTooLargeError(jsonLimit);
  if (
    status === 400 &&
    (type === 'entity.parse.failed' || error instanceof SyntaxError || /JSON|invalid/i.test(String((error as Error).message)))
  ) {
    return new MalformedJsonError((error as Error).message);
  }
  if (status === 415) {
    return new ValidationFailedError([
      { path: 'header/content-type', message: 'is not a content type this route accepts', code: 'content_type' },
    ]);
  }
  return undefined;
}

/** The problem+json body of an error. */
export function problemBody(error: ApiError, requestId: string): Record<string, unknown> {
  return {
    type: `${PROBLEM_BASE}${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
    ...error.extra.members,
  };
}

export function writeProblem(ctx: Context, error: ApiError, requestId: string): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
  ctx.type = 'application/problem+json';
  ctx.body = problemBody(error, requestId);
}

/**
 * The one place errors become responses: an ApiError as its problem, anything else as a logged 500 that
 * shows no internals. Also stamps every response with X-Request-Id and logs it.
 */
export function problemMiddleware(logger: Logger, jsonLimit: string) {
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const requestId = newRequestId();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } catch (error) {
      const known = error instanceof ApiError ? error : fromBodyParser(error, jsonLimit);
      if (known) {
        // A failure of what the service stands on (the media store) is the operator's to see, cause and all; a
        // platform's (502) is the account's, recorded there.
        if (known.status === 503) logger.error({ err: error, requestId, method: ctx.method, path: ctx.path }, known.detail);
        writeProblem(ctx, known, requestId);
      } else {
        logger.error({ err: error, requestId, method: ctx.method, path: ctx.path }, 'unexpected error');
        writeProblem(ctx, new InternalError(), requestId);
      }
    }
    logger.info(
      {
        requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        operationId: ctx.state.operation?.operationId,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}
