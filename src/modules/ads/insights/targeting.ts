import type { components } from '../../../../generated/api.js';
import { type Page, platformPage } from '../../../lib/pagination.js';
import { AdRefused } from '../../../platforms/capabilities/ad-campaigns.js';
import type { AdLocation, AdTargetingOption } from '../../../platforms/capabilities/ad-insights.js';
import type { Services } from '../../../services.js';
import { withAdAccount } from '../access.js';
import type { Principal } from '../../auth/principal.js';
import { CapabilityUnsupportedError } from '../../accounts/errors.js';
import { AdPlatformRejectedError } from '../errors.js';

type PageQuery = { adAccountId: string; limit?: number; cursor?: string };
const ALL_TYPES: AdLocation['type'][] = ['country', 'region', 'city', 'zip'];

/** `GET /ads/locations`: places targeting can name, read live from the ad account's platform. */
export function searchLocations(
  services: Services,
  principal: Principal,
  params: PageQuery & { q: string; types?: AdLocation['type'][]; countryCode?: string },
): Promise<Page<AdLocation>> {
  const search = { q: params.q, types: params.types ?? ALL_TYPES, countryCode: params.countryCode };
  return withAdAccount('adInsights', services, principal, params.adAccountId, {}, (targeting, account) =>
    platformPage(params, (page) => targeting.locations(account, search, page)),
  );
}

/**
 * `GET /ads/targeting/interests`, `/behaviors` and `/locales`: the ids targeting names them by, found by name. A
 * platform whose targeting takes language tags as they are has no locale search: 422.
 */
export function searchTargeting(
  services: Services,
  principal: Principal,
  kind: 'interests' | 'behaviors' | 'locales',
  params: PageQuery & { q?: string },
): Promise<Page<AdTargetingOption>> {
  return withAdAccount('adInsights', services, principal, params.adAccountId, {}, (targeting, account, row) => {
    if (kind === 'locales' && !targeting.locales)
      throw new CapabilityUnsupportedError(
        `${row.platform} targeting takes languages as language tags (de, en-GB) as they are: there is nothing to search.`,
      );
    return platformPage(params, (page) =>
      kind === 'interests'
        ? targeting.interests(account, params.q ?? '', page)
        : kind === 'locales'
          ? targeting.locales!(account, params.q ?? '', page)
          : targeting.behaviors(account, params.q, page),
    );
  });
}

/** `POST /ads/reach-estimate`: the platform's estimate of the people a targeting spec reaches. */
export function estimateReach(
  services: Services,
  principal: Principal,
  body: components['schemas']['AdReachEstimateRequest'],
): Promise<components['schemas']['AdReachEstimate']> {
  return withAdAccount(
    'adInsights',
    services,
    principal,
    body.adAccountId,
    {
      handle: (error) => {
        if (error instanceof AdRefused)
          throw new AdPlatformRejectedError(`The platform refused the targeting: ${error.message}`, null, {
            code: error.platformCode,
            subcode: error.platformSubcode,
          });
      },
    },
    async (targeting, account) => {
      const bounds = await targeting.reachEstimate(account, body.targeting, body.optimizationGoal);
      return {
        adAccountId: body.adAccountId,
        audienceSizeLowerBound: bounds.lower,
        audienceSizeUpperBound: bounds.upper,
        ready: bounds.ready,
      };
    },
  );
}
