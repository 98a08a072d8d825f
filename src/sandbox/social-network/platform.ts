import { verifyCallback } from '../meta-callback.js';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { DEFAULT_COMMENTER, mountPageComments } from './comments.js';
import { Graph } from './graph.js';
import { mountPageInsights } from './insights.js';
import { type CommentAuthor, mountMessengerSend, type MessengerState } from './messenger-send.js';
import { mountSocialOAuth } from './oauth.js';
import { mountSocialPeople } from './people.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { mountPagePosts, type PagePostsState } from './posts.js';
import { type Page, type SocialSnapshot, SocialState, TASKS, type Token } from './state.js';

export * from './demo.js';

const ADS = ['ads_management', 'ads_read'];

/**
 * The social network's Graph API (Facebook Pages and the Marketing API's ad accounts) under
 * `/social_network/graph/{version}/…`, its login dialog under `/social_network/www/…`: the parts our adapter
 * uses, with the Graph's error bodies and paging. Page webhooks go where the app's subscriptions say.
 */
/** What the social network keeps across a restart: its people, pages, apps and tokens, and the pages' posts. */
interface SocialNetworkState {
  social: SocialSnapshot;
  posts: PagePostsState;
  messenger?: MessengerState;
}

export function mountSocialNetwork(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as SocialNetworkState | undefined;
  const state = new SocialState(restored?.social);
  const graph = new Graph(state);
  const base = '/social_network/graph/:version';
  mountSocialOAuth(router, graph);

  const pageView = (page: Page, token: Token | null) => ({
    id: page.id,
    name: page.name,
    username: page.username,
    category: page.category,
    about: page.about,
    link: `https://social.example/${page.username}`,
    website: `https://${page.username}.example`,
    fan_count: page.followers,
    followers_count: page.followers,
    verification_status: 'not_verified',
    picture: { data: { url: `https://cdn.social.example/p/${page.id}.jpg`, is_silhouette: false } },
    ...(token ? { access_token: token.value, tasks: TASKS, category_list: [{ id: '1', name: page.category }] } : {}),
  });
  const userToken = (ctx: RouterContext): Token | null => {
    const token = graph.authenticate(ctx);
    if (token && token.kind !== 'user') {
      graph.fail(ctx, 400, 190, 'This method must be called with a user access token.');
      return null;
    }
    return token;
  };

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
    const token = userToken(ctx);
    if (!token) return;
    const user = state.users.get(token.userId)!;
    const granted = user.grants.get(token.appId)!;
    ctx.body = {
      data: [...granted]
        .map((permission) => ({ permission, status: 'granted' }))
        .concat([...user.declines].filter((p) => !granted.has(p)).map((permission) => ({ permission, status: 'declined' }))),
    };
  });

  /** The pages the person manages, each with a page token (non-expiring when derived from a long-lived token). */
  router.get(`${base}/me/accounts`, (ctx) => {
    const token = userToken(ctx);
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

  router.get(`${base}/me/adaccounts`, (ctx) => {
    const token = userToken(ctx);
    if (!token) return;
    if (!ADS.some((p) => state.granted(token, p))) return graph.missingPermission(ctx, 'ads_management or ads_read');
    const accounts = state.users.get(token.userId)!.adAccountIds.map((id) => {
      const a = state.adAccounts.get(id)!;
      return graph.pick(
        {
          id: a.id,
          account_id: a.id.slice(4),
          name: a.name,
          account_status: a.status,
          currency: a.currency,
          timezone_name: a.timezone,
          ...(a.business ? { business: { id: '9000000001', name: a.business } } : {}),
          user_tasks: ['MANAGE', 'ADVERTISE', 'ANALYZE'],
        },
        graph.params(ctx).fields,
        'account_id',
      );
    });
    ctx.body = graph.list(ctx, accounts, `${ctx.origin}${ctx.path}`);
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

  /** Page subscriptions need the page's token; ad account subscriptions the person's, with an ads permission. */
  router.post(`${base}/:id/subscribed_apps`, (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    const id = ctx.params.id!;
    const user = state.users.get(token.userId)!;
    if (id.startsWith('act_')) {
      const account = state.adAccounts.get(id);
      if (!account || !user.adAccountIds.includes(id)) return graph.unknownObject(ctx, id);
      if (!state.granted(token, 'ads_management')) return graph.missingPermission(ctx, 'ads_management');
      account.subscribedApps.add(graph.params(ctx).app_id ?? token.appId);
      ctx.body = { success: true };
      return;
    }
    const page = state.pages.get(id);
    if (!page || !user.pageIds.includes(id)) return graph.unknownObject(ctx, id);
    if (token.kind !== 'page' || token.pageId !== id)
      return graph.fail(ctx, 400, 210, '(#210) A page access token is required to request this resource.');
    if (!state.granted(token, 'pages_manage_metadata')) return graph.missingPermission(ctx, 'pages_manage_metadata');
    const fields = (graph.params(ctx).subscribed_fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0) return graph.fail(ctx, 400, 100, '(#100) The parameter subscribed_fields is required.');
    page.subscribedApps.set(token.appId, fields);
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

  router.delete(`${base}/:id/subscribed_apps`, (ctx) => {
    const token = graph.authenticate(ctx);
    const page = state.pages.get(ctx.params.id!);
    if (!token) return;
    if (!page || token.pageId !== page.id) return graph.unknownObject(ctx, ctx.params.id!);
    page.subscribedApps.delete(token.appId);
    ctx.body = { success: true };
  });

  // Before the page's own GET /:id: a post's or a video's id is answered there, anything else falls through.
  const posts = mountPagePosts(router, graph, base, restored?.posts);
  mountPageInsights(router, graph, base, () => posts.state().posts);
  mountPageComments(router, graph, base, posts);

  /** A page, read with its page token or the token of a person who manages it. */
  router.get(`${base}/:id`, (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    const page = state.pages.get(ctx.params.id!);
    const user = state.users.get(token.userId)!;
    if (!page || !user.pageIds.includes(page.id) || (token.kind === 'page' && token.pageId !== page.id))
      return graph.unknownObject(ctx, ctx.params.id!);
    ctx.body = graph.pick(pageView(page, null), graph.params(ctx).fields, 'name');
  });

  // A private reply may answer any person's comment on a page post (those of the comments controls too).
  const pageComment = (id: string): CommentAuthor | null => {
    for (const post of posts.posts.values()) {
      const comment = post.comments.find((c) => c.id === id && !c.fromPage && !c.deleted);
      if (comment) return { pageId: post.pageId, psid: comment.from?.id ?? DEFAULT_COMMENTER.id, at: comment.createdAt };
    }
    return null;
  };
  const messenger = mountMessengerSend(router, graph, state, pageComment, restored?.messenger);
  mountSocialPeople(router, state);
  return { state: (): SocialNetworkState => ({ social: state.snapshot(), posts: posts.state(), messenger: messenger() }) };
}
