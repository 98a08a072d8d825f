import type { Context, Next } from 'koa';
import { NotImplementedError } from '../lib/errors.js';
import type { RequestState } from './state.js';

/**
 * An operation that is not built answers 501 before its body is read or its input checked: a caller trying it
 * learns first that it does not exist yet, not what its input would have needed.
 */
export function unbuiltMiddleware(unbuilt: readonly string[]) {
  const operations = new Set(unbuilt);
  return (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const operationId = ctx.state.operation!.operationId ?? '';
    if (operations.has(operationId)) throw new NotImplementedError(operationId);
    return next();
  };
}
