import type { Context, Next } from 'koa';
import type { Document } from 'openapi-backend';
import type { Db } from '../db/database.js';
import { SessionRequiredError } from '../lib/errors.js';
import { authenticate } from '../modules/auth/authenticate.js';
import type { RequestState } from './state.js';

type Requirement = 'public' | 'session' | 'any';

/** What the contract's `security` asks of an operation: nothing, a user session, or either kind of token. */
export function requirementOf(operationSecurity: unknown, document: Document): Requirement {
  const security = (operationSecurity ?? document.security ?? []) as Array<Record<string, unknown>>;
  if (security.length === 0) return 'public';
  const schemes = new Set(security.flatMap((requirement) => Object.keys(requirement)));
  return schemes.size === 1 && schemes.has('session') ? 'session' : 'any';
}

export function authenticationMiddleware(db: Db, document: Document) {
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const operation = ctx.state.operation!;
    const requirement = requirementOf(operation.security, document);
    if (requirement === 'public') {
      ctx.state.principal = null;
    } else {
      const principal = await authenticate(db, ctx.get('Authorization') || undefined);
      if (requirement === 'session' && principal.kind !== 'session') throw new SessionRequiredError();
      ctx.state.principal = principal;
    }
    await next();
  };
}
