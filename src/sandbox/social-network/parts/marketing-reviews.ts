import { randomBytes } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import type { AdIssue, AdObject } from '../ad-objects.js';
import { defineSocialPart } from '../part.js';
import { deliver, type Delivery } from '../people.js';

/**
 * What the review controls can make happen to an ad account's next `ad_account` webhooks: `duplicate_webhooks` (each
 * webhook of the next change is sent twice, the second serialised anew, as a redelivery is), `hold_webhooks` (the
 * next `count` changes are held until `ad-webhooks/release` sends them, newest first, apart or in one webhook).
 */
type WebhookFault = { kind: 'duplicate_webhooks' } | { kind: 'hold_webhooks'; count: number };

const LEVELS: Record<AdObject['kind'], AdIssue['level']> = { campaign: 'CAMPAIGN', adset: 'AD_SET', ad: 'AD', adcreative: 'CREATIVE' };

/** One entry of an `ad_account` webhook: the ad account (without `act_`), the platform's second, the change. */
interface Entry {
  id: string;
  time: number;
  changes: Array<{ field: string; value: Record<string, unknown> }>;
}

/** The seconds of an ad account's webhooks: the platform's clock, one second apart at least, so each names its moment. */
interface ReviewsKept {
  clocks: Record<string, number>;
}

/**
 * The platform's review and delivery of an ad account's objects, as people and the platform move them, each told by
 * the signed `ad_account` webhook (to the apps subscribed to the field and to the ad account): an ad approved or
 * disapproved (`in_process_ad_objects` with its new status name), a delivery issue raised on an object
 * (`with_issues_ad_objects`), a recommendation published (`ad_recommendations`); and faults that duplicate or
 * reorder those webhooks.
 */
export const marketingReviewsPart = defineSocialPart<ReviewsKept>({
  key: 'marketing_reviews',
  mount(router, { state, ads }, restored) {
    const kept: ReviewsKept = restored ?? { clocks: {} };
    const faults = new Map<string, WebhookFault[]>();
    const held = new Map<string, Entry[]>();
    const people = '/_sandbox/social_network';
    const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
    const notFound = (ctx: RouterContext, what: string) => {
      ctx.status = 404;
      ctx.body = { error: `no such ${what}` };
    };

    const takeFault = (adAccountId: string, kind: WebhookFault['kind']): WebhookFault | undefined => {
      const list = faults.get(adAccountId) ?? [];
      const index = list.findIndex((fault) => fault.kind === kind);
      if (index < 0) return undefined;
      const [fault] = list.splice(index, 1);
      if (fault!.kind === 'hold_webhooks' && fault!.count > 1) list.push({ kind: 'hold_webhooks', count: fault!.count - 1 });
      return fault;
    };

    /** Sends entries of one ad account in one webhook to every app subscribed to their field and to the ad account (twice: serialised anew). */
    const send = async (adAccountId: string, entries: Entry[], twice = false): Promise<Delivery[]> => {
      const account = state.adAccounts.get(adAccountId)!;
      const field = entries[0]!.changes[0]!.field;
      const deliveries: Delivery[] = [];
      for (const app of state.apps.values()) {
        const subscription = app.subscriptions.get('ad_account');
        if (!subscription?.fields.includes(field) || !account.subscribedApps.has(app.id)) continue;
        deliveries.push(await deliver(app, subscription.callbackUrl, { object: 'ad_account', entry: entries }));
        if (twice) deliveries.push(await deliver(app, subscription.callbackUrl, { entry: entries, object: 'ad_account' }));
      }
      return deliveries;
    };

    /** The change of `field`, at the ad account's next second, sent; held or doubled as the faults say. */
    const notify = async (adAccountId: string, field: string, value: Record<string, unknown>): Promise<Delivery[]> => {
      const time = Math.max(Math.floor(Date.now() / 1000), (kept.clocks[adAccountId] ?? 0) + 1);
      kept.clocks[adAccountId] = time;
      const entry: Entry = { id: adAccountId.slice(4), time, changes: [{ field, value }] };
      const twice = takeFault(adAccountId, 'duplicate_webhooks') !== undefined;
      if (!takeFault(adAccountId, 'hold_webhooks')) return send(adAccountId, [entry], twice);
      held.set(adAccountId, [...(held.get(adAccountId) ?? []), entry]);
      return [];
    };

    /** A reviewer approves or disapproves an ad: its effective status moves, and the webhook tells its new name. */
    router.post(`${people}/ads/:id/review`, async (ctx) => {
      const ad = ads.find(ctx.params.id!, 'ad');
      if (!ad) return notFound(ctx, 'ad');
      const input = body(ctx) as { decision?: string; feedback?: string };
      const { before, after } = ads.setReview(ad, input.decision === 'disapprove' ? 'DISAPPROVED' : 'APPROVED', input.feedback ?? null);
      const deliveries =
        before === after
          ? []
          : await notify(ad.accountId, 'in_process_ad_objects', { id: ad.id, level: 'AD', status_name: ads.statusName(ad) });
      ctx.body = { id: ad.id, effectiveStatus: after, statusName: ads.statusName(ad), deliveries };
    });

    /** The platform finds a delivery problem on a campaign, ad set, ad or creative. */
    router.post(`${people}/ad-objects/:id/issue`, async (ctx) => {
      const object = ads.find(ctx.params.id!);
      if (!object) return notFound(ctx, 'ad object');
      const input = body(ctx) as Partial<Omit<AdIssue, 'level'>>;
      const issue: AdIssue = {
        level: LEVELS[object.kind],
        error_code: input.error_code ?? 1487390,
        error_summary: input.error_summary ?? 'Ad account has no payment method',
        error_message: input.error_message ?? 'Add a payment method to the ad account so that your ads can run.',
      };
      object.issues.push(issue);
      object.updatedAt = Date.now();
      ctx.body = { issue, deliveries: await notify(object.accountId, 'with_issues_ad_objects', { id: object.id, ...issue }) };
    });

    /** The platform publishes a recommendation for some of an ad account's objects. */
    router.post(`${people}/ad-recommendations`, async (ctx) => {
      const input = body(ctx) as { adAccountId?: string; objectIds?: string[]; type?: string; message?: string; stage?: string };
      const adAccountId = String(input.adAccountId ?? '');
      if (!state.adAccounts.has(adAccountId)) return notFound(ctx, 'ad account');
      const value = {
        ad_account_id: adAccountId.slice(4),
        ad_object_ids: input.objectIds ?? [],
        recommendation_type: input.type ?? 'AUDIENCE_EXPANSION',
        recommendation_message: input.message ?? 'Expand your audience to reach more people likely to respond.',
        recommendation_stage: input.stage ?? 'CREATED',
        recommendation_hash: randomBytes(6).toString('hex'),
        recommendation_signature: randomBytes(8).toString('hex'),
      };
      ctx.body = { recommendation: value, deliveries: await notify(adAccountId, 'ad_recommendations', value) };
    });

    /** The newest held change of the ad account is sent now; with `together`, all of them in one webhook, newest first. */
    router.post(`${people}/ad-webhooks/release`, async (ctx) => {
      const input = body(ctx) as { adAccountId?: string; together?: boolean };
      const adAccountId = String(input.adAccountId ?? '');
      const waiting = held.get(adAccountId) ?? [];
      const released = input.together ? waiting.splice(0).reverse() : waiting.splice(-1);
      ctx.body = { deliveries: released.length > 0 ? await send(adAccountId, released) : [], stillHeld: waiting.length };
    });

    /** Faults for the ad account's next `ad_account` webhooks. */
    router.post(`${people}/ad-webhook-faults`, (ctx) => {
      const input = body(ctx) as { adAccountId?: string; faults?: WebhookFault[] };
      const adAccountId = String(input.adAccountId ?? '');
      if (!state.adAccounts.has(adAccountId)) return notFound(ctx, 'ad account');
      faults.set(adAccountId, [...(faults.get(adAccountId) ?? []), ...(input.faults ?? [])]);
      ctx.body = { faults: faults.get(adAccountId) };
    });

    return { state: () => kept };
  },
});
