import type { Context, Next } from 'koa';
import type { Logger } from '../lib/logger.js';
import { ApiError, InternalError, MalformedJsonError, PayloadTooLargeError, ValidationFailedError } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import type { RequestState } from './state.js';

const PROBLEM_BASE = 'https://socialgate.dev/problems/';

/** Errors from the body parser (http-errors) carry a status and an `expose` flag but no code of ours. */
function fromBodyParser(error: unknown, jsonLimit: string): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type } = error as { status?: number; type?: string };
  if (status === 413 || type === 'entity.too.large') return new PayloadTooLargeError(jsonLimit);
  if (status === 400 && (type === 'entity.parse.failed' || error instanceof SyntaxError || /JSON|invalid/i.test(String((error as Error).message)))) {
    return new MalformedJsonError((error as Error).message);
  }
  if (status === 415) {
    return new ValidationFailedError([{ path: 'header/content-type', message: 'is not a content type this route accepts', code: 'content_type' }]);
  }
  return undefined;
}

export function writeProblem(ctx: Context, error: ApiError, requestId: string): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
  ctx.type = 'application/problem+json';
  ctx.body = {
    type: `${PROBLEM_BASE}${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
}

/**
 * The one place errors become responses: an ApiError as its problem, anything else as a logged 500 that
 * shows no internals. Also stamps every response with X-Request-Id and logs it.
 */
export function problemMiddleware(logger: Logger, jsonLimit: string) {
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const requestId = newId('req');
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } catch (error) {
      const known = error instanceof ApiError ? error : fromBodyParser(error, jsonLimit);
      if (known) {
        writeProblem(ctx, known, requestId);
      } else {
        logger.error({ err: error, requestId, method: ctx.method, path: ctx.path }, 'unexpected error');
        writeProblem(ctx, new InternalError(), requestId);
      }
    }
    logger.info({
      requestId, method: ctx.method, path: ctx.path, status: ctx.status,
      operationId: ctx.state.operation?.operationId, ms: Math.round((performance.now() - started) * 10) / 10,
    }, 'request');
  };
}
