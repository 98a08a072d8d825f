import type Router from '@koa/router';
import type { Ad, AdGroup, Campaign, CampaignTreeState } from './campaign-tree.js';

type Body = Record<string, unknown>;

/** The people's controls of the campaign tree: its contents, injected faults, and the review of an ad. */
export function mountCampaignControls(
  router: Router,
  tree: CampaignTreeState,
  views: { campaign(c: Campaign): Body; adgroup(g: AdGroup): Body; ad(ad: Ad): Body },
): void {
  const campaignView = views.campaign;
  const adgroupView = views.adgroup;
  const adView = views.ad;
  /** Everything the advertiser's tree holds, deleted objects too: to check what happened exactly once. */
  router.post('/_sandbox/short_video_ads/tree', (ctx) => {
    const id = String(((ctx.request.body ?? {}) as { advertiserId?: string }).advertiserId ?? '');
    const of = <T extends { advertiser_id: string }>(objects: Map<string, T>, view: (object: T) => Body) =>
      [...objects.values()].filter((object) => object.advertiser_id === id).map(view);
    ctx.body = { campaigns: of(tree.campaigns, campaignView), adgroups: of(tree.adgroups, adgroupView), ads: of(tree.ads, adView) };
  });
  router.post('/_sandbox/short_video_ads/fail-next', (ctx) => {
    const body = (ctx.request.body ?? {}) as { code?: number; message?: string; path?: string };
    tree.failNext = {
      code: body.code ?? 50002,
      message: body.message ?? 'Internal service error.',
      ...(body.path ? { path: body.path } : {}),
    };
    ctx.body = { failNext: tree.failNext };
  });
  router.post('/_sandbox/short_video_ads/lose-next', (ctx) => {
    const path = ((ctx.request.body ?? {}) as { path?: string }).path;
    tree.loseNext = path ? { path } : {};
    ctx.body = { loseNext: tree.loseNext };
  });
  /** The platform's review of an ad: approved, it delivers; denied, it does not (`AD_STATUS_AUDIT_DENY`). */
  router.post('/_sandbox/short_video_ads/ads/:id/review', (ctx) => {
    const ad = tree.ads.get(ctx.params.id!);
    const decision = ((ctx.request.body ?? {}) as { decision?: string }).decision;
    if (!ad || (decision !== 'approve' && decision !== 'deny')) {
      ctx.status = 400;
      ctx.body = { error: 'an existing ad and a decision (approve, deny) are needed' };
      return;
    }
    ad.review = decision === 'approve' ? 'APPROVED' : 'DENIED';
    ctx.body = adView(ad);
  });
}
