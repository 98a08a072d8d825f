import { cursorForm } from '../../../lib/pagination.js';
import type { AdLevel, AdListFilter } from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import { AdObjectNotFoundError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { type PresentedOf, presentAdObject } from './present.js';

const DEFAULT_LIMIT = 25;

/** Where a list goes on: the platform's page token, with the ad account, level and filters it belongs to. */
const PAGE = cursorForm('adtree1', { level: ['campaign', 'adset', 'ad'], adAccountId: 'text', filter: 'text', after: 'platformCursor' });

export interface ListQuery {
  adAccountId: string;
  effectiveStatus?: AdListFilter['effectiveStatus'];
  objective?: AdListFilter['objective'];
  campaignId?: string;
  adsetId?: string;
  updatedSince?: string;
  limit?: number;
  cursor?: string;
}

/**
 * One page of the ad account's campaigns, ad sets or ads, read live from the platform, newest first, as the filters
 * narrow them (on the platform). A parent named as a filter must be in the ad account (404 otherwise); a cursor is
 * good only for the query it was given with (400 `invalid_cursor`).
 */
export async function listAdObjects<L extends AdLevel>(
  services: Services,
  principal: Principal,
  level: L,
  query: ListQuery,
): Promise<{ data: Array<PresentedOf<L>>; nextCursor: string | null }> {
  const { adAccountId, limit, cursor, ...rest } = query;
  const filter: AdListFilter = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const filterKey = JSON.stringify(filter);
  const after = cursor ? PAGE.decode(cursor, { level, adAccountId, filter: filterKey }).after : undefined;
  return withAdAccount(
    'adCampaigns',
    services,
    principal,
    adAccountId,
    { handle: adRefusals('query') },
    async (campaigns, account, row) => {
      for (const [parentLevel, id] of [
        ['campaign', filter.campaignId],
        ['adset', filter.adsetId],
      ] as const) {
        if (id !== undefined && !after && !(await campaigns.get(account, parentLevel, id))) throw new AdObjectNotFoundError(parentLevel);
      }
      const page = await campaigns.list(account, level, filter, limit ?? DEFAULT_LIMIT, after);
      return {
        data: page.items.map((item) => presentAdObject(item, row)),
        nextCursor: page.nextCursor ? PAGE.encode({ level, adAccountId, filter: filterKey, after: page.nextCursor }) : null,
      };
    },
  );
}
