import { createHash, randomBytes } from 'node:crypto';
import { mountPerformance } from './performance.js';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { PublicUrls } from '../public-urls.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { GrantNumbers, withGrants } from '../shared-grants.js';
import { mountCalendar } from './calendar-api.js';
import type { CalendarState } from './calendar-store.js';
import { type LocalPostsState, mountLocalPosts } from './local-posts.js';
import { masked, readMaskRefusal } from './read-mask.js';

/**
 * The search suite's OAuth 2.0 (authorization code + PKCE + refresh, form-encoded token endpoint, `invalid_grant`)
 * and the business-profile and calendar reads our adapter makes, with Google's error body shape.
 */
export const SANDBOX_CLIENT = { id: 'sandbox-search-suite-client', secret: 'sandbox-search-suite-secret' };

interface Grant {
  scope: string;
  revoked: boolean;
}
interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  grant: Grant;
  used: boolean;
  expiresAt: number;
}
type Named<E> = Map<string, Omit<E, 'grant'> & { grant: number }>;

/**
 * What the suite keeps across a restart: its codes and tokens, their grants listed once and named by number (a
 * refresh token and the access tokens it issued share one), its settings, the local posts and the calendars.
 * The locations are constants.
 */
interface SearchSuiteState {
  grants: Grant[];
  codes: Named<Code>;
  accessTokens: Named<AccessToken>;
  refreshTokens: Named<RefreshToken>;
  settings: { accessTokenTtlSeconds: number };
  localPosts: LocalPostsState;
  calendar: CalendarState;
  strictUrls?: boolean;
}
type AccessToken = { grant: Grant; expiresAt: number };
type RefreshToken = { grant: Grant };

export function mountSearchSuite(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as SearchSuiteState | undefined;
  const grants = restored?.grants ?? [];
  const codes: Map<string, Code> = restored ? withGrants(restored.codes, grants) : new Map();
  const accessTokens: Map<string, AccessToken> = restored ? withGrants(restored.accessTokens, grants) : new Map();
  const refreshTokens: Map<string, RefreshToken> = restored ? withGrants(restored.refreshTokens, grants) : new Map();
  const settings = restored?.settings ?? { accessTokenTtlSeconds: 3599 };
  const account = { name: 'accounts/1010', accountName: 'Acme Coffee Group', type: 'ORGANIZATION', role: 'OWNER' };
  const locations = [
    {
      name: 'locations/2020',
      title: 'Acme Coffee — Mitte',
      websiteUri: 'https://acme.example/mitte',
      categories: { primaryCategory: { displayName: 'Coffee shop' } },
      profile: { description: 'Roastery and café.' },
    },
    {
      name: 'locations/2021',
      title: 'Acme Coffee — Kreuzberg',
      websiteUri: 'https://acme.example/kreuzberg',
      categories: { primaryCategory: { displayName: 'Coffee shop' } },
      profile: { description: 'Espresso bar.' },
    },
  ];

  const apiError = (ctx: RouterContext, code: number, status: string, message: string) => {
    ctx.status = code;
    ctx.body = {
      error: {
        code,
        message,
        status,
        errors: [{ message, domain: 'global', reason: status === 'UNAUTHENTICATED' ? 'authError' : 'forbidden' }],
      },
    };
  };
  /** A 400 INVALID_ARGUMENT naming the field, as Google's APIs answer a missing or bad parameter. */
  const invalidArgument = (ctx: RouterContext, field: string, description: string) => {
    ctx.status = 400;
    ctx.body = {
      error: {
        code: 400,
        message: 'Request contains an invalid argument.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description }] }],
      },
    };
  };
  const tokenError = (ctx: RouterContext, error: string, description: string) => {
    ctx.status = error === 'invalid_client' ? 401 : 400;
    ctx.body = { error, error_description: description };
  };
  /** Bearer authentication of the API reads. */
  const authorised = (ctx: RouterContext, scope: string): boolean => {
    const token = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    const entry = token ? accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) {
      apiError(ctx, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
      return false;
    }
    if (!entry.grant.scope.split(' ').includes(scope)) {
      apiError(ctx, 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
      return false;
    }
    return true;
  };
  const issue = (grant: Grant) => {
    const accessToken = `ya29.sandbox-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(accessToken, { grant, expiresAt: Date.now() + settings.accessTokenTtlSeconds * 1000 });
    return accessToken;
  };

  /** The consent page: a person approves or declines; both post back here. */
  router.get('/search_suite/o/oauth2/v2/auth', (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (q.client_id !== SANDBOX_CLIENT.id || !q.redirect_uri || q.response_type !== 'code') {
      ctx.status = 400;
      ctx.body = 'Error 400: invalid_request';
      return;
    }
    const hidden = Object.entries(q)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${String(v).replace(/"/g, '&quot;')}">`)
      .join('');
    ctx.type = 'html';
    ctx.body = `<!doctype html><title>Sign in - Sandbox</title><h1>Acme wants to access your business profiles</h1>
<p>Scopes: ${q.scope}</p>
<form method="post" action="/search_suite/o/oauth2/consent">${hidden}<button name="decision" value="approve">Allow</button><button name="decision" value="deny">Cancel</button></form>`;
  });

  router.post('/search_suite/o/oauth2/consent', (ctx) => {
    const form = ctx.request.body as Record<string, string>;
    const target = new URL(form.redirect_uri!);
    if (form.decision !== 'approve') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = `4/sandbox-${randomBytes(16).toString('base64url')}`;
      codes.set(code, {
        clientId: form.client_id!,
        redirectUri: form.redirect_uri!,
        challenge: form.code_challenge ?? null,
        grant: { scope: form.scope ?? '', revoked: false },
        used: false,
        expiresAt: Date.now() + 10 * 60 * 1000,
      });
      target.searchParams.set('code', code);
      target.searchParams.set('scope', form.scope ?? '');
    }
    if (form.state) target.searchParams.set('state', form.state);
    ctx.redirect(target.toString());
  });

  router.post('/search_suite/token', (ctx) => {
    const form = ctx.request.body as Record<string, string>;
    if (form.client_id !== SANDBOX_CLIENT.id || form.client_secret !== SANDBOX_CLIENT.secret)
      return tokenError(ctx, 'invalid_client', 'The OAuth client was not found.');
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt < Date.now() || code.redirectUri !== form.redirect_uri)
        return tokenError(ctx, 'invalid_grant', 'Malformed auth code.');
      if (
        code.challenge &&
        createHash('sha256')
          .update(form.code_verifier ?? '')
          .digest('base64url') !== code.challenge
      ) {
        return tokenError(ctx, 'invalid_grant', 'Invalid code verifier.');
      }
      code.used = true;
      const refreshToken = `1//sandbox-${randomBytes(24).toString('base64url')}`;
      refreshTokens.set(refreshToken, { grant: code.grant });
      ctx.body = {
        access_token: issue(code.grant),
        expires_in: settings.accessTokenTtlSeconds,
        refresh_token: refreshToken,
        scope: code.grant.scope,
        token_type: 'Bearer',
      };
      return;
    }
    if (form.grant_type === 'refresh_token') {
      const grant = refreshTokens.get(form.refresh_token ?? '')?.grant;
      if (!grant || grant.revoked) return tokenError(ctx, 'invalid_grant', 'Token has been expired or revoked.');
      ctx.body = { access_token: issue(grant), expires_in: settings.accessTokenTtlSeconds, scope: grant.scope, token_type: 'Bearer' };
      return;
    }
    return tokenError(ctx, 'unsupported_grant_type', 'Invalid grant_type.');
  });

  // The token in the query or, as Google's client libraries send it, in a form body.
  router.post('/search_suite/revoke', (ctx) => {
    const form = (ctx.request.body ?? {}) as Record<string, unknown>;
    const token = String(form.token ?? ctx.query.token ?? '');
    const grant = (refreshTokens.get(token) ?? accessTokens.get(token))?.grant;
    if (!grant) return tokenError(ctx, 'invalid_token', 'Token expired or revoked');
    grant.revoked = true;
    ctx.body = {};
  });

  const business = 'https://www.googleapis.com/auth/business.manage';
  router.get('/search_suite/accounts/v1/accounts', (ctx) => {
    if (authorised(ctx, business)) ctx.body = { accounts: [account] };
  });
  router.get('/search_suite/businessinfo/v1/accounts/:account/locations', (ctx) => {
    if (!authorised(ctx, business)) return;
    const refused = readMaskRefusal(ctx.query.readMask);
    if (refused) return invalidArgument(ctx, refused.field, refused.description);
    const listed = ctx.params.account === '1010' ? locations : [];
    ctx.body = { locations: listed.map((location) => masked(location, String(ctx.query.readMask))) };
  });
  router.get('/search_suite/businessinfo/v1/locations/:location', (ctx) => {
    if (!authorised(ctx, business)) return;
    const location = locations.find((l) => l.name === `locations/${ctx.params.location}`);
    if (!location) return apiError(ctx, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const refused = readMaskRefusal(ctx.query.readMask);
    if (refused) return invalidArgument(ctx, refused.field, refused.description);
    ctx.body = masked(location, String(ctx.query.readMask));
  });
  const calendar = mountCalendar(router, { restored: restored?.calendar, saveNow: stored.saveNow }, authorised);

  const urls = new PublicUrls(restored?.strictUrls);
  urls.mount(router, 'search_suite');
  const localPosts = mountLocalPosts(
    router,
    { restored: restored?.localPosts, saveNow: stored.saveNow },
    urls,
    authorised,
    apiError,
    (name) => name.startsWith(`${account.name}/`) && locations.some((l) => name.endsWith(`/${l.name}`)),
  );

  mountPerformance(router, authorised, apiError, business);

  // The people on the platform.
  /** The user removes the app's access in their account settings: every token of every grant stops working. */
  router.post('/_sandbox/search_suite/revoke-access', (ctx) => {
    for (const { grant } of refreshTokens.values()) grant.revoked = true;
    ctx.body = { revoked: true };
  });
  /** Shorter-lived access tokens, to see refreshes happen. */
  router.post('/_sandbox/search_suite/settings', (ctx) => {
    const body = (ctx.request.body ?? {}) as { accessTokenTtlSeconds?: number };
    if (body.accessTokenTtlSeconds !== undefined) settings.accessTokenTtlSeconds = body.accessTokenTtlSeconds;
    ctx.body = settings;
  });

  return {
    state: (): SearchSuiteState => {
      const numbers = new GrantNumbers<Grant>();
      return {
        codes: numbers.named(codes),
        accessTokens: numbers.named(accessTokens),
        refreshTokens: numbers.named(refreshTokens),
        grants: numbers.grants,
        settings,
        localPosts: localPosts(),
        calendar: calendar(),
        strictUrls: urls.state(),
      };
    },
  };
}
