import type { Context } from 'koa';
import type { Services } from '../services.js';
import type { AnyHandler, OperationId, Request } from './handler.js';
import type { RequestState } from './state.js';

/** Runs the operation's handler and writes what it answers. */
export function dispatchMiddleware(handlers: Record<string, AnyHandler>, services: Services) {
  return async (ctx: Context & { state: RequestState }): Promise<void> => {
    const operationId = ctx.state.operation!.operationId as OperationId;
    const handler = handlers[operationId];
    if (!handler) throw new Error(`no handler for ${operationId}`);
    const request: Request<OperationId> = {
      operationId,
      params: ctx.state.params as never,
      query: ctx.state.query as never,
      body: ctx.request.body as never,
      principal: ctx.state.principal ?? null,
      requestId: ctx.state.requestId,
      koa: ctx,
    };
    const reply = await handler(request, services);
    ctx.status = reply.status;
    for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
    if (reply.raw !== undefined) {
      ctx.type = reply.contentType ?? 'application/octet-stream';
      ctx.body = reply.raw;
    } else if (reply.body !== undefined && reply.status !== 204) {
      if (reply.contentType) ctx.type = reply.contentType;
      ctx.body = reply.body;
    } else {
      // Explicitly empty: Koa would otherwise write the status text ("Found") as the body of a redirect, and
      // it turns a null body into 204, so the status is set again after it.
      ctx.body = null;
      ctx.status = reply.status;
    }
  };
}
