import type { Context, Next } from 'koa';
import { MethodNotAllowedError, RouteNotFoundError } from '../lib/errors.js';
import type { Contract } from './contract.js';
import type { RequestState } from './state.js';

/** Finds the contract operation of the request; 405 names the methods the path accepts, 404 otherwise. */
export function routeMiddleware(contract: Contract) {
  return (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const operation = contract.match(ctx.method, ctx.path);
    if (!operation) {
      const allowed = contract.methodsFor(ctx.path);
      if (allowed.length > 0) throw new MethodNotAllowedError(ctx.method, ctx.path, allowed);
      throw new RouteNotFoundError(ctx.method, ctx.path);
    }
    ctx.state.operation = operation;
    return next();
  };
}
