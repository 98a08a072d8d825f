import type { RouterContext } from '@koa/router';
import { defineSocialPart } from '../part.js';

/** What a boost's next call on an ad account's edge meets: the platform's refusal, or its token revoked there. */
type BoostFault = { kind: 'refuse'; edge: BoostEdge; subcode?: number; message?: string } | { kind: 'revoke_token'; edge: BoostEdge };
type BoostEdge = 'campaigns' | 'adsets' | 'adcreatives' | 'ads';

const EDGES = new Set<string>(['campaigns', 'adsets', 'adcreatives', 'ads']);
/** The sandbox's subcode of a refusal a person asked for. */
const REFUSED_SUBCODE = 1487390;

/** What the boost part keeps across a restart: the posts a person made ineligible, with their promotion status. */
interface BoostState {
  ineligible: Map<string, string>;
}

/**
 * Boosting a page post on the Marketing API: `GET /{post-id}?fields=is_eligible_for_promotion,promotion_status`
 * (the ad account's person must manage the page; a deleted post is an unknown object), and faults at each of a
 * boost's four creations, as people's controls: a refusal, or the person's token revoked at that call (the lost
 * answer is the marketing part's `lose_answer`). Its routes run before the marketing part's, which they hand on to.
 */
export const marketingBoostPart = defineSocialPart<BoostState>({
  key: 'marketing-boost',
  mount(router, { state, graph, feed, base }, restored) {
    const ineligible = restored?.ineligible ?? new Map<string, string>();
    const faults = new Map<string, BoostFault[]>();

    router.get(`${base}/:id`, (ctx, next) => {
      const post = feed.posts.get(ctx.params.id!);
      const fields = graph.params(ctx).fields ?? '';
      if (!post || !fields.includes('is_eligible_for_promotion')) return next();
      const token = graph.userToken(ctx);
      if (!token) return;
      if (!feed.visible(post) || !state.users.get(token.userId)!.pageIds.includes(post.pageId)) return graph.unknownObject(ctx, post.id);
      const status = ineligible.get(post.id);
      ctx.body = graph.pick(
        { id: post.id, is_eligible_for_promotion: status === undefined, promotion_status: status ?? 'inactive' },
        fields,
        'id',
      );
    });

    router.post(`${base}/:accountId/:edge`, (ctx: RouterContext, next) => {
      const { accountId, edge } = ctx.params as { accountId: string; edge: string };
      const list = faults.get(accountId) ?? [];
      const index = list.findIndex((fault) => fault.edge === edge);
      if (!EDGES.has(edge) || index < 0) return next();
      const [fault] = list.splice(index, 1);
      if (fault!.kind === 'revoke_token') {
        const token = graph.authenticate(ctx);
        if (!token) return;
        token.revoked = true;
        return graph.fail(ctx, 400, 190, state.refusal(token)!.message, { subcode: state.refusal(token)!.subcode });
      }
      graph.fail(ctx, 400, 100, 'Invalid parameter', {
        subcode: fault!.subcode ?? REFUSED_SUBCODE,
        user: { title: 'Request Refused', message: fault!.message ?? `The platform refused this ${edge.replace(/s$/, '')}.` },
      });
    });

    const people = '/_sandbox/social_network';
    const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;

    /** A post the platform will not promote (`promotionStatus`, default `ineligible`), or eligible again (`eligible: true`). */
    router.post(`${people}/boost-eligibility`, (ctx) => {
      const { postId, eligible, promotionStatus } = body(ctx) as { postId?: string; eligible?: boolean; promotionStatus?: string };
      if (!feed.posts.has(String(postId))) {
        ctx.status = 404;
        ctx.body = { error: 'no such post' };
        return;
      }
      if (eligible) ineligible.delete(String(postId));
      else ineligible.set(String(postId), promotionStatus ?? 'ineligible');
      ctx.body = { postId, eligible: !ineligible.has(String(postId)) };
    });

    /** Faults for the ad account's next creations on their edges, each taken once. */
    router.post(`${people}/boost-faults`, (ctx) => {
      const { adAccountId, faults: added } = body(ctx) as { adAccountId?: string; faults?: BoostFault[] };
      if (!state.adAccounts.has(String(adAccountId))) {
        ctx.status = 404;
        ctx.body = { error: 'no such ad account' };
        return;
      }
      faults.set(String(adAccountId), [...(faults.get(String(adAccountId)) ?? []), ...(added ?? [])]);
      ctx.body = { faults: faults.get(String(adAccountId)) };
    });

    return { state: () => ({ ineligible }) };
  },
});
