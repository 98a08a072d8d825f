import { randomBytes } from 'node:crypto';
import { mountThreadsInsights } from './insights.js';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { DEMO_THREADS_USER, SANDBOX_THREADS_APP } from './demo.js';
import { PublicUrls } from '../public-urls.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { mountThreadsPosting, type ThreadsPostingState } from './posting.js';
import { mountThreadsReplies, type ThreadsRepliesState } from './replies.js';

export * from './demo.js';

interface Person {
  id: string;
  username: string;
  name: string;
  biography: string;
  authorised: boolean;
}
interface Token {
  value: string;
  userId: string;
  scopes: string[];
  longLived: boolean;
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
}

interface Code {
  userId: string;
  scopes: string[];
  redirectUri: string;
  used: boolean;
}

/** What Threads keeps across a restart: its people, tokens, codes and ids, and what was published. */
interface SocialThreadsState {
  people: Map<string, Person>;
  tokens: Map<string, Token>;
  codes: Map<string, Code>;
  browserUserId: string;
  nextId: bigint;
  posting: ThreadsPostingState;
  replies?: ThreadsRepliesState;
  strictUrls?: boolean;
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The Threads API: the authorize page (consent), the code exchange (form POST, a one-hour token), the long-lived
 * token (`th_exchange_token`, 60 days) and its refresh (`th_refresh_token`: at least 24 hours old, not expired),
 * the profile read, and publishing (posting.ts); Graph-style error bodies. The token endpoints live at the host's root, reads under a version.
 */
export function mountSocialThreads(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as SocialThreadsState | undefined;
  const people = restored?.people ?? new Map<string, Person>([[DEMO_THREADS_USER.id, { ...DEMO_THREADS_USER, authorised: false }]]);
  const tokens = restored?.tokens ?? new Map<string, Token>();
  const codes = restored?.codes ?? new Map<string, Code>();
  const settings = { longLivedTtlSeconds: 5_184_000, minRefreshAgeSeconds: 24 * 3600 };
  let browserUserId = restored?.browserUserId ?? DEMO_THREADS_USER.id;
  // Graph ids are beyond a double's integers: counted as BigInt.
  let nextId = restored?.nextId ?? 17_841_400_000_000_100n;

  const fail = (ctx: RouterContext, code: number, message: string, subcode?: number, status = 400) => {
    ctx.status = status;
    ctx.body = {
      error: {
        message,
        type: 'OAuthException',
        code,
        ...(subcode === undefined ? {} : { error_subcode: subcode }),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    };
  };
  const params = (ctx: RouterContext): Record<string, string> => ({
    ...(ctx.query as Record<string, string>),
    ...((ctx.request.body as Record<string, string> | undefined) ?? {}),
  });
  const issue = (userId: string, scopes: string[], longLived: boolean): Token => {
    const ttl = longLived ? settings.longLivedTtlSeconds : 3600;
    const token: Token = {
      value: `THSandbox${randomBytes(30).toString('base64url')}`,
      userId,
      scopes,
      longLived,
      issuedAt: Date.now(),
      expiresAt: Date.now() + ttl * 1000,
      revoked: false,
    };
    tokens.set(token.value, token);
    return token;
  };
  /** The working token of `access_token`, or the 190 written already. */
  const authenticate = (ctx: RouterContext): Token | null => {
    const token = tokens.get(params(ctx).access_token ?? '');
    if (!token) fail(ctx, 190, 'Invalid OAuth access token - Cannot parse access token');
    else if (token.revoked) fail(ctx, 190, 'Error validating access token: The session has been invalidated.', 460);
    else if (token.expiresAt < Date.now()) fail(ctx, 190, 'Error validating access token: Session has expired.', 463);
    else if (!people.get(token.userId)?.authorised)
      fail(ctx, 190, `Error validating access token: The user has not authorized application ${SANDBOX_THREADS_APP.id}.`, 458);
    else return token;
    return null;
  };

  router.get('/social_threads/www/oauth/authorize', (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (q.client_id !== SANDBOX_THREADS_APP.id || !/^https?:\/\//.test(q.redirect_uri ?? '') || q.response_type !== 'code') {
      ctx.status = 400;
      ctx.body = 'Invalid request: unknown app or redirect_uri';
      return;
    }
    const person = people.get(browserUserId)!;
    const fields = {
      client_id: q.client_id,
      redirect_uri: q.redirect_uri!,
      state: q.state ?? '',
      scope: q.scope ?? '',
      user_id: person.id,
    };
    const hidden = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(v)}">`)
      .join('');
    ctx.type = 'html';
    ctx.body = `<!doctype html><title>Threads</title><h1>Allow the app to access your Threads profile?</h1><p>@${escape(person.username)} · ${escape(q.scope ?? '')}</p>
<form method="post" action="/social_threads/www/oauth/consent">${hidden}<button name="decision" value="approve">Allow</button><button name="decision" value="deny">Cancel</button></form>`;
  });

  router.post('/social_threads/www/oauth/consent', (ctx) => {
    const form = ctx.request.body as Record<string, string>;
    const target = new URL(form.redirect_uri!);
    const person = people.get(form.user_id ?? '');
    if (form.decision !== 'approve' || !person) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_reason', 'user_denied');
      target.searchParams.set('error_description', 'Permissions error');
    } else {
      person.authorised = true;
      const code = `AQTh${randomBytes(24).toString('base64url')}`;
      codes.set(code, {
        userId: person.id,
        scopes: (form.scope ?? '').split(',').filter(Boolean),
        redirectUri: form.redirect_uri!,
        used: false,
      });
      target.searchParams.set('code', code);
    }
    if (form.state) target.searchParams.set('state', form.state);
    ctx.redirect(target.toString());
  });

  router.post('/social_threads/graph/oauth/access_token', (ctx) => {
    const p = params(ctx);
    if (p.client_id !== SANDBOX_THREADS_APP.id || p.client_secret !== SANDBOX_THREADS_APP.secret)
      return fail(ctx, 101, 'Error validating client secret.');
    const code = codes.get(p.code ?? '');
    if (p.grant_type !== 'authorization_code' || !code || code.used || code.redirectUri !== p.redirect_uri) {
      return fail(ctx, 100, 'Error validating verification code. The code is used, unknown, or the redirect_uri differs.', 36009);
    }
    code.used = true;
    // `user_id` is a JSON number with every digit of the id, as Threads sends it: more than a double holds exactly.
    ctx.type = 'json';
    ctx.body = `{"access_token":${JSON.stringify(issue(code.userId, code.scopes, false).value)},"user_id":${code.userId}}`;
  });

  router.get('/social_threads/graph/access_token', (ctx) => {
    const p = params(ctx);
    if (p.grant_type !== 'th_exchange_token' || p.client_secret !== SANDBOX_THREADS_APP.secret)
      return fail(ctx, 100, 'Unsupported grant_type, or the client secret is wrong.');
    const short = authenticate(ctx);
    if (!short) return;
    if (short.longLived) return fail(ctx, 100, 'The token is long-lived already; refresh it instead.');
    ctx.body = {
      access_token: issue(short.userId, short.scopes, true).value,
      token_type: 'bearer',
      expires_in: settings.longLivedTtlSeconds,
    };
  });

  router.get('/social_threads/graph/refresh_access_token', (ctx) => {
    if (params(ctx).grant_type !== 'th_refresh_token') return fail(ctx, 100, 'Unsupported grant_type.');
    const token = authenticate(ctx);
    if (!token) return;
    if (!token.longLived) return fail(ctx, 100, 'Only long-lived tokens can be refreshed.');
    if (Date.now() - token.issuedAt < settings.minRefreshAgeSeconds * 1000)
      return fail(ctx, 100, 'The token must be at least 24 hours old to be refreshed.');
    ctx.body = {
      access_token: issue(token.userId, token.scopes, true).value,
      token_type: 'bearer',
      expires_in: settings.longLivedTtlSeconds,
    };
  });

  router.get('/social_threads/graph/:version/me', (ctx) => {
    const token = authenticate(ctx);
    if (!token) return;
    const person = people.get(token.userId)!;
    const all: Record<string, unknown> = {
      id: person.id,
      username: person.username,
      name: person.name,
      threads_biography: person.biography,
      threads_profile_picture_url: `https://cdn.threads.example/p/${person.id}.jpg`,
    };
    const fields = String(params(ctx).fields ?? 'id')
      .split(',')
      .map((f) => f.trim());
    ctx.body = { ...Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])), id: person.id };
  });

  const auth = {
    authenticate,
    fail,
    params,
    userExists: (userId: string) => people.has(userId),
    usernameOf: (userId: string) => people.get(userId)?.username ?? userId,
  };
  mountThreadsInsights(router, auth);
  // Before publishing's routes: a reply's id is answered there, anything else falls through.
  const replies = mountThreadsReplies(router, auth, (id) => posting.thread(id), restored?.replies);
  const urls = new PublicUrls(restored?.strictUrls);
  urls.mount(router, 'social_threads');
  const posting = mountThreadsPosting(router, auth, replies.target, urls, restored?.posting);

  // The people on the platform.
  router.post('/_sandbox/social_threads/users', (ctx) => {
    const input = (ctx.request.body ?? {}) as { username?: string; name?: string };
    const id = String(nextId++);
    const person: Person = {
      id,
      username: input.username ?? `sandbox.${id.slice(-4)}`,
      name: input.name ?? 'Sandbox Person',
      biography: 'On the sandbox.',
      authorised: false,
    };
    people.set(id, person);
    browserUserId = id;
    ctx.status = 201;
    ctx.body = { userId: id, username: person.username };
  });
  /** The person removes the app: every token of theirs stops working (190, subcode 458). */
  router.post('/_sandbox/social_threads/remove-app', (ctx) => {
    const person = people.get(String((ctx.request.body as { userId?: string } | undefined)?.userId ?? ''));
    if (!person) return fail(ctx, 100, 'no such person');
    person.authorised = false;
    ctx.body = { removed: true };
  });
  /** Shorter-lived tokens and a shorter minimum age, to see refreshes happen. */
  router.post('/_sandbox/social_threads/settings', (ctx) => {
    Object.assign(settings, (ctx.request.body ?? {}) as Partial<typeof settings>);
    ctx.body = settings;
  });

  return {
    state: (): SocialThreadsState => ({
      people,
      tokens,
      codes,
      browserUserId,
      nextId,
      posting: posting.state(),
      replies: replies.state(),
      strictUrls: urls.state(),
    }),
  };
}
