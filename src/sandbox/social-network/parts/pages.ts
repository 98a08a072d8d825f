import type { RouterContext } from '@koa/router';
import { pageView } from '../graph.js';
import { defineSocialPart } from '../part.js';
import type { Page } from '../state.js';

/**
 * Pages: those a person manages, each with a page token (`/me/accounts`), a page read by id, and the apps
 * subscribed to a page's webhook fields. Listed after the parts whose `GET /{id}` answers posts and comments.
 */
export const pagesPart = defineSocialPart({
  key: 'pages',
  mount(router, { state, graph, base }) {
    /** The pages the person manages, each with a page token (non-expiring when derived from a long-lived token). */
    router.get(`${base}/me/accounts`, (ctx) => {
      const token = graph.userToken(ctx);
      if (!token) return;
      if (!state.granted(token, 'pages_show_list')) return graph.missingPermission(ctx, 'pages_show_list');
      const user = state.users.get(token.userId)!;
      const pages = user.pageIds.map((id) => {
        const ttl = token.expiresAt !== null && token.expiresAt - Date.now() < 24 * 3600 * 1000 ? 3600 : null;
        const pageToken = state.issue('page', token.appId, user.id, ttl, id);
        return graph.pick(
          pageView(state.pages.get(id)!, pageToken),
          graph.params(ctx).fields,
          'name,access_token,category,category_list,tasks',
        );
      });
      ctx.body = graph.list(ctx, pages, `${ctx.origin}${ctx.path}`);
    });

    /**
     * The page a subscription request names, when the token may change its subscriptions: the page's own token, of a
     * person who manages it, with pages_manage_metadata; otherwise the Graph's refusal is answered.
     */
    const subscribable = (ctx: RouterContext): { page: Page; appId: string } | null => {
      const token = graph.authenticate(ctx);
      if (!token) return null;
      const id = ctx.params.id!;
      const page = state.pages.get(id);
      if (!page || !state.users.get(token.userId)!.pageIds.includes(id)) graph.unknownObject(ctx, id);
      else if (token.kind !== 'page' || token.pageId !== id)
        graph.fail(ctx, 400, 210, '(#210) A page access token is required to request this resource.');
      else if (!state.granted(token, 'pages_manage_metadata')) graph.missingPermission(ctx, 'pages_manage_metadata');
      else return { page, appId: token.appId };
      return null;
    };

    router.post(`${base}/:id/subscribed_apps`, (ctx) => {
      const subscribing = subscribable(ctx);
      if (!subscribing) return;
      const fields = (graph.params(ctx).subscribed_fields ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      if (fields.length === 0) return graph.fail(ctx, 400, 100, '(#100) The parameter subscribed_fields is required.');
      subscribing.page.subscribedApps.set(subscribing.appId, fields);
      ctx.body = { success: true };
    });

    router.get(`${base}/:id/subscribed_apps`, (ctx) => {
      const token = graph.authenticate(ctx);
      const page = state.pages.get(ctx.params.id!);
      if (!token) return;
      if (!page || token.pageId !== page.id) return graph.unknownObject(ctx, ctx.params.id!);
      ctx.body = {
        data: [...page.subscribedApps].map(([appId, fields]) => ({
          id: appId,
          name: state.apps.get(appId)?.name,
          subscribed_fields: fields,
        })),
      };
    });

    /** The app unsubscribed: the page's events stop reaching it. An app not subscribed is answered the same. */
    router.delete(`${base}/:id/subscribed_apps`, (ctx) => {
      const unsubscribing = subscribable(ctx);
      if (!unsubscribing) return;
      unsubscribing.page.subscribedApps.delete(unsubscribing.appId);
      ctx.body = { success: true };
    });

    /** A page, read with its page token or the token of a person who manages it; the last `GET /{id}`. */
    router.get(`${base}/:id`, (ctx) => {
      const token = graph.authenticate(ctx);
      if (!token) return;
      const page = state.pages.get(ctx.params.id!);
      const user = state.users.get(token.userId)!;
      if (!page || !user.pageIds.includes(page.id) || (token.kind === 'page' && token.pageId !== page.id))
        return graph.unknownObject(ctx, ctx.params.id!);
      ctx.body = graph.pick(pageView(page, null), graph.params(ctx).fields, 'name');
    });
  },
});
