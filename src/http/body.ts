import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { ValidationFailedError } from '../lib/errors.js';
import { acceptsMultipart, multipartBody, type UploadSettings } from './multipart.js';
import type { RequestState } from './state.js';

/** The content codings the body parser decodes (it compares them in lower case only). */
const CODINGS = ['identity', 'gzip', 'deflate', 'br'];

function encodingRefused(message: string): ValidationFailedError {
  return new ValidationFailedError([{ path: 'header/content-encoding', message, code: 'content_encoding' }]);
}

/** The request's content coding, lower-cased for the parser; 400 for one it does not decode. */
function contentCoding(ctx: Context): string {
  const coding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
  if (!CODINGS.includes(coding)) throw encodingRefused(`must be one of ${CODINGS.join(', ')}`);
  ctx.req.headers['content-encoding'] = coding;
  return coding;
}

/** An operation whose body its handler reads as a stream (`x-streamed-body`): never buffered nor parsed here. */
export function isStreamed(operation: object): boolean {
  return (operation as { 'x-streamed-body'?: unknown })['x-streamed-body'] === true;
}

/** http-errors (raw-body's, co-body's) carry a status; a decompressor's failure is a plain error. */
function hasStatus(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

/**
 * Parses JSON, form and text bodies, keeping the exact text for idempotency hashes and signatures; on routes
 * whose contract takes multipart/form-data, a multipart body's file is streamed to a temporary file instead.
 * An operation that takes no body never reads one, so nothing about a body sent anyway (its size, its coding)
 * can fail it.
 */
export function bodyMiddleware(jsonLimit: string, uploads: UploadSettings) {
  const parse = koaBody({
    jsonLimit,
    formLimit: jsonLimit,
    textLimit: jsonLimit,
    includeUnparsed: true,
    multipart: false,
    // Any JSON text is parsed, `null` included: the contract then says what the body must be.
    jsonStrict: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    if (!ctx.state.operation?.requestBody) return next();
    const coding = contentCoding(ctx);
    // Its handler reads it line by line from `ctx.req` (decoding `coding` itself), however large.
    if (isStreamed(ctx.state.operation)) return next();
    if (ctx.is('multipart/form-data') && acceptsMultipart(ctx.state.operation)) {
      if (coding !== 'identity') throw encodingRefused('must be identity for a multipart body');
      return multipartBody(ctx, uploads, next);
    }
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
        const raw = (ctx.request as { rawBody?: unknown }).rawBody;
        if (typeof raw === 'string') ctx.state.rawBody = raw;
        // A request without a body has none; koa-body would hand the validator an empty object instead.
        if (!ctx.request.length && !ctx.get('Transfer-Encoding')) ctx.request.body = undefined;
        await next();
      });
    } catch (error) {
      if (!parsed && coding !== 'identity' && !hasStatus(error)) throw encodingRefused(`does not match the body: it is not ${coding} data`);
      throw error;
    }
  };
}
