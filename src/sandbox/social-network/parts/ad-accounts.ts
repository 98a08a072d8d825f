import { defineSocialPart } from '../part.js';

const ADS = ['ads_management', 'ads_read'];

/** The Marketing API's ad accounts as the login lists them (`/me/adaccounts`), and their webhook subscriptions. */
export const adAccountsPart = defineSocialPart({
  key: 'ad_accounts',
  mount(router, { state, graph, base }) {
    router.get(`${base}/me/adaccounts`, (ctx) => {
      const token = graph.userToken(ctx);
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

    /**
     * An ad account's subscription (made or removed) needs the person's token with ads_management; a page's is the
     * pages part's. An app not subscribed is unsubscribed all the same.
     */
    for (const method of ['post', 'delete'] as const) {
      router[method](`${base}/:id/subscribed_apps`, (ctx, next) => {
        const id = ctx.params.id!;
        if (!id.startsWith('act_')) return next();
        const token = graph.authenticate(ctx);
        if (!token) return;
        const account = state.adAccounts.get(id);
        if (!account || !state.users.get(token.userId)!.adAccountIds.includes(id)) return graph.unknownObject(ctx, id);
        if (!state.granted(token, 'ads_management')) return graph.missingPermission(ctx, 'ads_management');
        const appId = graph.params(ctx).app_id ?? token.appId;
        if (method === 'post') account.subscribedApps.add(appId);
        else account.subscribedApps.delete(appId);
        ctx.body = { success: true };
      });
    }
  },
});
