import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { acceptsMultipart, multipartBody, type UploadSettings } from './multipart.js';
import type { RequestState } from './state.js';

/**
 * Parses JSON, form and text bodies, keeping the exact text for idempotency hashes and signatures; on routes
 * whose contract takes multipart/form-data, a multipart body's file is streamed to a temporary file instead.
 */
export function bodyMiddleware(jsonLimit: string, uploads: UploadSettings) {
  const parse = koaBody({
    jsonLimit, formLimit: jsonLimit, textLimit: jsonLimit,
    includeUnparsed: true, multipart: false, jsonStrict: true,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    if (ctx.is('multipart/form-data') && acceptsMultipart(ctx.state.operation)) return multipartBody(ctx, uploads, next);
    await parse(ctx, async () => {
      const raw = (ctx.request as { rawBody?: unknown }).rawBody;
      if (typeof raw === 'string') ctx.state.rawBody = raw;
      // A request without a body has none; koa-body would hand the validator an empty object instead.
      if (!ctx.request.length && !ctx.get('Transfer-Encoding')) ctx.request.body = undefined;
      await next();
    });
  };
}
