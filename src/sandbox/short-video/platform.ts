import { createHash, randomBytes } from 'node:crypto';
import { mountShortVideoInsights } from './insights.js';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { DEMO_USER } from './demo.js';
import { mountShortVideoPeople } from './people.js';
import { mountShortVideoPosting } from './posting.js';
import { mountShortVideoPostingPeople } from './posting-people.js';
import { PublicUrls } from '../public-urls.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { type PostingSnapshot, PostingState } from './posting-state.js';
import { type LoginSnapshot, logId, ShortVideoState, type User } from './state.js';

/**
 * Login Kit v2 and the open API reads our adapter makes: the consent page, the form-encoded token endpoint
 * (PKCE with a hex S256 challenge, rotating refresh tokens, `invalid_grant`), revoke, and user info with the
 * platform's own bodies (`{data, error: {code, message, log_id}}`).
 */
const FIELD_SCOPES: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  username: 'user.info.profile',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

function userField(user: User, field: string): unknown {
  switch (field) {
    case 'open_id':
      return user.openId;
    case 'union_id':
      return user.unionId;
    case 'avatar_url':
    case 'avatar_url_100':
    case 'avatar_large_url':
      return `https://sandbox.invalid/avatars/${user.unionId}.jpeg`;
    case 'display_name':
      return user.displayName;
    case 'username':
      return user.username;
    case 'bio_description':
      return user.bio;
    case 'profile_deep_link':
      return `https://vm.sandbox.invalid/@${user.username}`;
    case 'is_verified':
      return user.verified;
    case 'follower_count':
      return user.followers;
    case 'following_count':
      return user.following;
    case 'likes_count':
      return user.videos * 37;
    default:
      return user.videos;
  }
}

/** What the short-video platform keeps across a restart: Login Kit's users and tokens, and what was posted. */
interface ShortVideoPlatformState {
  login: LoginSnapshot;
  posting: PostingSnapshot;
  strictUrls?: boolean;
}

export function mountShortVideo(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as ShortVideoPlatformState | undefined;
  const state = new ShortVideoState(restored?.login);
  const oauthError = (ctx: RouterContext, status: number, error: string, description: string) => {
    ctx.status = status;
    ctx.body = { error, error_description: description, log_id: logId() };
  };
  const apiError = (ctx: RouterContext, status: number, code: string, message: string) => {
    ctx.status = status;
    ctx.body = { data: {}, error: { code, message, log_id: logId() } };
  };

  /** The consent page of the signed-in user (the demo creator unless the form names another `open_id`). */
  router.get('/short_video/v2/auth/authorize/', (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (
      q.client_key !== state.app.clientKey ||
      q.response_type !== 'code' ||
      !q.redirect_uri ||
      !q.scope ||
      (q.code_challenge && q.code_challenge_method !== 'S256')
    ) {
      ctx.status = 400;
      ctx.body = 'Something went wrong: param_error (client_key, response_type, redirect_uri, scope or code_challenge_method)';
      return;
    }
    const fields = { ...q, open_id: DEMO_USER.openId };
    const hidden = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${String(v).replace(/"/g, '&quot;')}">`)
      .join('');
    ctx.type = 'html';
    ctx.body = `<!doctype html><title>Authorize - Sandbox</title><h1>Sandbox app would like to access your account</h1>
<p>Permissions: ${q.scope}</p>
<form method="post" action="/short_video/v2/auth/consent">${hidden}<button name="decision" value="approve">Authorize</button><button name="decision" value="deny">Cancel</button></form>`;
  });

  router.post('/short_video/v2/auth/consent', (ctx) => {
    const form = ctx.request.body as Record<string, string>;
    const target = new URL(form.redirect_uri!);
    if (form.decision !== 'approve') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user canceled the authorization.');
    } else {
      if (!state.users.has(form.open_id ?? '')) return oauthError(ctx, 400, 'invalid_request', 'No such user is signed in.');
      const code = randomBytes(24).toString('base64url');
      const scopes = (form.scope ?? '').split(',').filter(Boolean);
      state.codes.set(code, {
        redirectUri: form.redirect_uri!,
        challenge: form.code_challenge || null,
        used: false,
        grant: { openId: form.open_id!, scopes, revoked: false },
        expiresAt: Date.now() + 10 * 60 * 1000,
      });
      target.searchParams.set('code', code);
      target.searchParams.set('scopes', scopes.join(','));
    }
    if (form.state) target.searchParams.set('state', form.state);
    ctx.redirect(target.toString());
  });

  router.post('/short_video/v2/oauth/token/', (ctx) => {
    const form = (ctx.request.body ?? {}) as Record<string, string>;
    if (form.client_key !== state.app.clientKey || form.client_secret !== state.app.clientSecret) {
      return oauthError(ctx, 401, 'invalid_client', 'Client key or secret is incorrect.');
    }
    if (form.grant_type === 'authorization_code') {
      const code = state.codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt < Date.now() || code.redirectUri !== form.redirect_uri) {
        return oauthError(ctx, 400, 'invalid_grant', 'Authorization code is expired or invalid.');
      }
      // Login Kit's challenge is the hex SHA-256 of the verifier.
      if (
        code.challenge &&
        createHash('sha256')
          .update(form.code_verifier ?? '')
          .digest('hex') !== code.challenge
      ) {
        return oauthError(ctx, 400, 'invalid_grant', 'Code verifier or code challenge is invalid.');
      }
      code.used = true;
      ctx.body = state.issue(code.grant);
      return;
    }
    if (form.grant_type === 'refresh_token') {
      const entry = state.refreshTokens.get(form.refresh_token ?? '');
      if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) {
        return oauthError(ctx, 400, 'invalid_grant', 'Refresh token is invalid or expired.');
      }
      // Rotation: the refresh token is spent; only the new one works from now on.
      state.refreshTokens.delete(form.refresh_token!);
      ctx.body = state.issue(entry.grant);
      return;
    }
    return oauthError(ctx, 400, 'unsupported_grant_type', 'The grant type is not supported.');
  });

  /** Revoking a token ends the user's authorization of the app, as removing the app does. */
  router.post('/short_video/v2/oauth/revoke/', (ctx) => {
    const form = (ctx.request.body ?? {}) as Record<string, string>;
    if (form.client_key !== state.app.clientKey || form.client_secret !== state.app.clientSecret) {
      return oauthError(ctx, 401, 'invalid_client', 'Client key or secret is incorrect.');
    }
    const entry = state.accessTokens.get(form.token ?? '');
    if (!entry) return oauthError(ctx, 400, 'invalid_request', 'The access token is invalid.');
    entry.grant.revoked = true;
    ctx.body = {};
  });

  router.get('/short_video/v2/user/info/', (ctx) => {
    if (state.settings.rateLimited)
      return apiError(ctx, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
    const token = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    const entry = token ? state.accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) {
      return apiError(ctx, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    }
    const fields = String(ctx.query.fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const unknown = fields.filter((field) => !FIELD_SCOPES[field]);
    if (fields.length === 0 || unknown.length > 0)
      return apiError(ctx, 400, 'invalid_params', `Invalid fields: ${unknown.join(',') || '(none)'}`);
    if (fields.some((field) => !entry.grant.scopes.includes(FIELD_SCOPES[field]!))) {
      return apiError(ctx, 401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.');
    }
    const user = state.users.get(entry.grant.openId)!;
    ctx.body = {
      data: { user: Object.fromEntries(fields.map((field) => [field, userField(user, field)])) },
      error: { code: 'ok', message: '', log_id: logId() },
    };
  });

  mountShortVideoPeople(router, state);
  const posting = new PostingState(state, restored?.posting);
  const urls = new PublicUrls(restored?.strictUrls);
  urls.mount(router, 'short_video');
  mountShortVideoPosting(router, state, posting, { urls, sandboxHost: new URL(sandboxUrl).hostname });
  mountShortVideoPostingPeople(router, state, posting);
  mountShortVideoInsights(router, state, posting);
  return { state: (): ShortVideoPlatformState => ({ login: state.snapshot(), posting: posting.snapshot(), strictUrls: urls.state() }) };
}
