import type Router from '@koa/router';
import type { ReportApi } from './report-routes.js';
import type { ListedIdentity } from './spark-routes.js';

type Body = Record<string, unknown>;

/** The identity types an ad may show itself as; a Spark ad's are the creator's own (`AUTH_CODE`, `TT_USER`, `BC_AUTH_TT`). */
const IDENTITY_TYPES = ['CUSTOMIZED_USER', 'AUTH_CODE', 'TT_USER', 'BC_AUTH_TT'];

/** The custom identity (`CUSTOMIZED_USER`) every advertiser of the sandbox has, shown under its name. */
export const customIdentityOf = (advertiserId: string) => `ci${advertiserId}`;

/**
 * Why an ad's creative cannot be made as it names its identity, or null: the Business API requires one for every
 * ad that is not a Spark ad, and a custom identity must be one of the advertiser's.
 */
export function identityRefusal(creative: Body, advertiserId: string): string | null {
  if (typeof creative.identity_id !== 'string' || typeof creative.identity_type !== 'string')
    return 'creatives.identity_id: Required: give identity_id and identity_type (the ad shows itself as that identity).';
  if (!IDENTITY_TYPES.includes(creative.identity_type)) return `creatives.identity_type: Must be one of ${IDENTITY_TYPES.join(', ')}.`;
  if (creative.identity_type === 'CUSTOMIZED_USER' && creative.identity_id !== customIdentityOf(advertiserId))
    return `creatives.identity_id: The identity ${creative.identity_id} does not exist for the advertiser.`;
  return null;
}

/**
 * `identity/get/`: the advertiser's identities, its custom one and the TikTok accounts linked to it (`linked`);
 * `identity_type` narrows them.
 */
export function mountIdentities(router: Router, api: ReportApi, base: string, linked: (advertiserId: string) => ListedIdentity[]): void {
  router.get(`${base}/identity/get/`, (ctx) => {
    const advertiser = api.advertiser(ctx, ctx.query.advertiser_id);
    if (!advertiser) return;
    const type = ctx.query.identity_type;
    const identities = [
      {
        identity_id: customIdentityOf(advertiser.advertiser_id),
        identity_type: 'CUSTOMIZED_USER',
        display_name: advertiser.name ?? advertiser.advertiser_id,
        can_pull_video: false,
      },
      ...linked(advertiser.advertiser_id),
    ].filter((identity) => !type || identity.identity_type === type);
    api.answer(ctx, 0, 'OK', {
      identity_list: identities,
      page_info: { page: 1, page_size: 100, total_number: identities.length, total_page: 1 },
    });
  });
}
