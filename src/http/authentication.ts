import type { Context, Next } from 'koa';
import type { Document } from 'openapi-backend';
import { SessionRequiredError } from '../lib/errors.js';
import type { Authenticator } from '../modules/auth/authenticate.js';
import { type Principal, principalId } from '../modules/auth/principal.js';
import type { UsageRecorder } from '../modules/usage/recorder.js';
import type { RateLimit } from './rate-limit.js';
import type { RequestState } from './state.js';

type Requirement = 'public' | 'session' | 'any';

/** What the contract's `security` asks of an operation: nothing, a user session, or either kind of token. */
export function requirementOf(operationSecurity: unknown, document: Document): Requirement {
  const security = (operationSecurity ?? document.security ?? []) as Array<Record<string, unknown>>;
  if (security.length === 0) return 'public';
  const schemes = new Set(security.flatMap((requirement) => Object.keys(requirement)));
  return schemes.size === 1 && schemes.has('session') ? 'session' : 'any';
}

/**
 * Authenticates the caller and applies its rate limit. A request the operation will refuse anyway (an API key
 * on a session-only route: 403) is not counted. Each authenticated request is counted as usage (in memory:
 * `usage.record` writes nothing).
 */
export function authenticationMiddleware(authenticator: Authenticator, document: Document, limit: RateLimit, usage: UsageRecorder) {
  const requirements = new WeakMap<object, Requirement>();
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const operation = ctx.state.operation!;
    let requirement = requirements.get(operation);
    if (requirement === undefined) {
      requirement = requirementOf(operation.security, document);
      requirements.set(operation, requirement);
    }
    if (requirement === 'public') {
      ctx.state.principal = null;
    } else {
      const principal = await authenticator.authenticate(ctx.get('Authorization') || undefined);
      if (requirement === 'session' && principal.kind !== 'session') throw new SessionRequiredError();
      ctx.state.principal = principal;
      usage.record(principal.ownerId, soleProfileOf(principal), 'apiRequests');
      await limit.apply(ctx, principalId(principal));
    }
    await next();
  };
}

/** The profile a request is one profile's usage of: that of a key restricted to exactly one. */
function soleProfileOf(principal: Principal): string | null {
  return principal.kind === 'apiKey' && principal.profileIds?.length === 1 ? principal.profileIds[0]! : null;
}
