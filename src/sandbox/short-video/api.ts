import type { RouterContext } from '@koa/router';
import { logId, type ShortVideoState } from './state.js';

/** The open API's ways of answering, shared by the sandbox's routes: its envelope, its errors, its bearer check. */
export function shortVideoApi(state: ShortVideoState) {
  const apiError = (ctx: RouterContext, status: number, code: string, message: string) => {
    ctx.status = status;
    ctx.body = { data: {}, error: { code, message, log_id: logId() } };
  };
  const ok = (ctx: RouterContext, data: unknown) => {
    ctx.body = { data, error: { code: 'ok', message: '', log_id: logId() } };
  };

  /** The user behind a valid token with `scope`, or null with the platform's 401 (or the switched-on 429) sent. */
  const authorised = (ctx: RouterContext, scope: string): string | null => {
    if (state.settings.rateLimited) {
      apiError(ctx, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
      return null;
    }
    const token = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    const entry = token ? state.accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) {
      apiError(ctx, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
      return null;
    }
    if (!entry.grant.scopes.includes(scope)) {
      apiError(ctx, 401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.');
      return null;
    }
    return entry.grant.openId;
  };
  return { apiError, ok, authorised };
}
