import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { Graph } from './graph.js';
import { LONG_LIVED_SECONDS } from './state.js';

const SHORT_LIVED_SECONDS = 5400;
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The login dialog (a consent page for the person signed in to the browser) and the token endpoint: the code
 * exchange (short-lived token) and `fb_exchange_token` (long-lived, about 60 days; no refresh tokens).
 */
export function mountSocialOAuth(router: Router, graph: Graph): void {
  const { state } = graph;

  router.get('/social_network/www/:version/dialog/oauth', (ctx) => {
    const q = ctx.query as Record<string, string>;
    const app = state.apps.get(q.client_id ?? '');
    if (!app || !/^https?:\/\//.test(q.redirect_uri ?? '') || (q.response_type ?? 'code') !== 'code') {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = '<!doctype html><title>Error</title><p>Invalid App ID or redirect_uri: the app is not set up for this login.</p>';
      return;
    }
    const user = state.users.get(state.browserUserId)!;
    const fields = { client_id: app.id, redirect_uri: q.redirect_uri!, state: q.state ?? '', scope: q.scope ?? '', user_id: user.id };
    const hidden = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(v)}">`)
      .join('');
    ctx.type = 'html';
    ctx.body = `<!doctype html><title>Log in with Sandbox</title><h1>${escape(app.name)} wants to access your pages and ad accounts</h1>
<p>Signed in as ${escape(user.name)}. Permissions: ${escape((q.scope ?? '').split(',').join(', '))}</p>
<form method="post" action="/social_network/www/dialog/consent">${hidden}<button name="decision" value="approve">Continue as ${escape(user.name)}</button><button name="decision" value="deny">Cancel</button></form>`;
  });

  router.post('/social_network/www/dialog/consent', (ctx) => {
    const form = ctx.request.body as Record<string, string>;
    const target = new URL(form.redirect_uri!);
    const user = state.users.get(form.user_id ?? '');
    if (form.decision !== 'approve' || !user) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_code', '200');
      target.searchParams.set('error_description', 'Permissions error');
      target.searchParams.set('error_reason', 'user_denied');
    } else {
      // The person grants what was asked, less what they untick; a grant adds to what they granted the app before.
      const granted = user.grants.get(form.client_id!) ?? new Set<string>();
      for (const scope of (form.scope ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean))
        if (!user.declines.has(scope)) granted.add(scope);
      granted.add('public_profile');
      user.grants.set(form.client_id!, granted);
      const code = `AQ${randomBytes(24).toString('base64url')}`;
      state.codes.set(code, {
        appId: form.client_id!,
        redirectUri: form.redirect_uri!,
        userId: user.id,
        used: false,
        expiresAt: Date.now() + 10 * 60 * 1000,
      });
      target.searchParams.set('code', code);
    }
    if (form.state) target.searchParams.set('state', form.state);
    ctx.redirect(target.toString());
  });

  router.get('/social_network/graph/:version/oauth/access_token', (ctx) => {
    if (graph.injected(ctx)) return;
    const q = graph.params(ctx);
    const app = state.apps.get(q.client_id ?? '');
    if (!app) return graph.fail(ctx, 400, 101, 'Error validating application. Invalid application ID.');
    if (q.client_secret !== app.secret) return graph.fail(ctx, 400, 1, 'Error validating client secret.');
    if (q.grant_type === 'fb_exchange_token') {
      const short = state.tokens.get(q.fb_exchange_token ?? '');
      const refusal = short
        ? state.refusal(short)
        : { message: 'Invalid OAuth access token - Cannot parse access token', subcode: undefined };
      if (!short || short.kind !== 'user' || short.appId !== app.id || refusal)
        return graph.invalidToken(ctx, refusal?.message ?? 'Invalid OAuth access token.', refusal?.subcode);
      const long = state.issue('user', app.id, short.userId, LONG_LIVED_SECONDS);
      ctx.body = { access_token: long.value, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS };
      return;
    }
    const code = state.codes.get(q.code ?? '');
    if (!code || code.appId !== app.id) return graph.fail(ctx, 400, 100, 'Invalid verification code format.', { subcode: 36009 });
    if (code.used) return graph.fail(ctx, 400, 100, 'This authorization code has been used.', { subcode: 36009 });
    if (code.expiresAt < Date.now()) return graph.fail(ctx, 400, 100, 'This authorization code has expired.', { subcode: 36007 });
    if (code.redirectUri !== q.redirect_uri) {
      return graph.fail(
        ctx,
        400,
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        { subcode: 36008 },
      );
    }
    code.used = true;
    const token = state.issue('user', app.id, code.userId, SHORT_LIVED_SECONDS);
    ctx.body = { access_token: token.value, token_type: 'bearer', expires_in: SHORT_LIVED_SECONDS };
  });
}
