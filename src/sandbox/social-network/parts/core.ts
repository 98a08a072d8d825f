import { verifyCallback } from '../../meta-callback.js';
import { pageView } from '../graph.js';
import { mountSocialOAuth } from '../oauth.js';
import { defineSocialPart } from '../part.js';
import { mountSocialPeople } from '../people.js';

/**
 * The Graph's core: the login dialog and its tokens, who a token is (`/me`) and what it was granted, the app's
 * webhook subscriptions (its dashboard); and the people who sign up, sign in, remove the app, lose a token.
 */
export const corePart = defineSocialPart({
  key: 'core',
  mount(router, { state, graph, base }) {
    mountSocialOAuth(router, graph);

    router.get(`${base}/me`, (ctx) => {
      const token = graph.authenticate(ctx);
      if (!token) return;
      if (token.kind === 'page') {
        ctx.body = graph.pick(pageView(state.pages.get(token.pageId!)!, null), graph.params(ctx).fields, 'name');
        return;
      }
      const user = state.users.get(token.userId)!;
      ctx.body = graph.pick({ id: user.id, name: user.name }, graph.params(ctx).fields, 'name');
    });

    router.get(`${base}/me/permissions`, (ctx) => {
      const token = graph.userToken(ctx);
      if (!token) return;
      const user = state.users.get(token.userId)!;
      const granted = user.grants.get(token.appId)!;
      ctx.body = {
        data: [...granted]
          .map((permission) => ({ permission, status: 'granted' }))
          .concat([...user.declines].filter((p) => !granted.has(p)).map((permission) => ({ permission, status: 'declined' }))),
      };
    });

    /** The app's webhook subscriptions (its dashboard, by API): the callback URL is verified with the handshake first. */
    router.post(`${base}/:appId/subscriptions`, async (ctx) => {
      if (graph.injected(ctx)) return;
      const p = graph.params(ctx);
      const app = state.apps.get(ctx.params.appId!);
      if (!app) return graph.unknownObject(ctx, ctx.params.appId!);
      if (p.access_token !== `${app.id}|${app.secret}`) return graph.fail(ctx, 400, 190, 'Invalid OAuth access token signature.');
      if (!['page', 'permissions', 'user', 'ad_account'].includes(p.object ?? ''))
        return graph.fail(ctx, 400, 100, '(#100) Param object must be one of {user, page, permissions, ad_account}');
      if (!p.callback_url || !p.verify_token)
        return graph.fail(ctx, 400, 100, '(#100) The parameters callback_url and verify_token are required.');
      const problem = await verifyCallback(p.callback_url, p.verify_token);
      if (problem) return graph.fail(ctx, 400, 2200, `(#2200) Callback verification failed with the following errors: ${problem}`);
      app.subscriptions.set(p.object!, {
        callbackUrl: p.callback_url,
        verifyToken: p.verify_token,
        fields: (p.fields ?? '')
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      });
      ctx.body = { success: true };
    });

    router.get(`${base}/:appId/subscriptions`, (ctx) => {
      const app = state.apps.get(ctx.params.appId!);
      if (!app || graph.params(ctx).access_token !== `${app.id}|${app.secret}`)
        return graph.fail(ctx, 400, 190, 'Invalid OAuth access token signature.');
      ctx.body = {
        data: [...app.subscriptions].map(([object, s]) => ({
          object,
          callback_url: s.callbackUrl,
          active: true,
          fields: s.fields.map((name) => ({ name, version: 'v25.0' })),
        })),
      };
    });

    mountSocialPeople(router, state);
  },
});
