import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { RequestState } from './state.js';

/** Parses JSON, form and text bodies, keeping the exact text for idempotency hashes and signatures. */
export function bodyMiddleware(jsonLimit: string) {
  const parse = koaBody({
    jsonLimit, formLimit: jsonLimit, textLimit: jsonLimit,
    includeUnparsed: true, multipart: false, jsonStrict: true,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    await parse(ctx, async () => {
      const raw = (ctx.request as { rawBody?: unknown }).rawBody;
      if (typeof raw === 'string') ctx.state.rawBody = raw;
      // A request without a body has none; koa-body would hand the validator an empty object instead.
      if (!ctx.request.length && !ctx.get('Transfer-Encoding')) ctx.request.body = undefined;
      await next();
    });
  };
}
