import type { components } from '../../../../generated/api.js';
import type { AdDatePreset, AdInsights, AdInsightsField, AdInsightsQuery } from '../../../platforms/capabilities/ad-insights.js';
import type { AdsAccount } from '../../../platforms/capabilities/ad-campaigns.js';
import { PlatformError } from '../../../platforms/errors.js';
import type { AdAccountRow } from '../../accounts/models.js';

type Figures = components['schemas']['AdTreeFigures'];
type Counts = Pick<Figures, 'impressions' | 'clicks' | 'spend'>;

/** The figures a tree carries: the additive ones, so an ad set's and the campaign's are the sums of their ads'. */
const FIELDS: AdInsightsField[] = ['impressions', 'clicks', 'spend'];
/** The most rows the platforms give in one page of insights. */
const ROWS_PAGE = 500;

/** The figures of a tree's objects: each object's from the ads under it. */
export type TreeFigures = {
  /** The sum of these ads' figures, or, without ids, of every ad of the campaign (those not listed as well). */
  of: (adIds?: string[]) => Figures | null;
  unavailable: string | null;
};

/**
 * The campaign's ads' figures over `preset`, in one insights read at ad level (page after page of it), summed for
 * any group of ads. A refusal of the read leaves every figure null with the platform's reason, so the tree still
 * answers; credentials the platform no longer accepts fail the call as any other read does.
 */
export async function treeFigures(
  insights: AdInsights | undefined,
  account: AdsAccount,
  row: AdAccountRow,
  campaignId: string,
  preset: AdDatePreset,
): Promise<TreeFigures> {
  const none = (reason: string): TreeFigures => ({ of: () => null, unavailable: reason });
  if (!insights) return none('The ad platform gives apps no insights.');
  const query: AdInsightsQuery = {
    level: 'ad',
    object: { id: campaignId, level: 'campaign' },
    fields: FIELDS,
    period: { preset },
    timeIncrement: 'all',
    breakdowns: [],
    attributionWindows: [],
    currency: row.currency,
    timeZone: row.timezone,
  };
  const missing = insights.unsupported(query);
  const lacking = FIELDS.find((field) => missing[field]);
  if (lacking) return none(`The ad platform gives no ${lacking} here: ${missing[lacking]}`);
  const byAd = new Map<string, Counts>();
  try {
    let after: string | undefined;
    do {
      const page = await insights.read(account, query, { limit: ROWS_PAGE, after });
      for (const ad of page.data) byAd.set(ad.objectId, add(byAd.get(ad.objectId), ad));
      after = page.next ?? undefined;
    } while (after);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.needsReconnection) throw error;
    return none(`The ad platform refused the insights read: ${error.message}`);
  }
  return {
    unavailable: null,
    of: (adIds) => {
      const counted = adIds ? adIds.map((id) => byAd.get(id)) : [...byAd.values()];
      const sum = counted.reduce<Counts>((total, counts) => add(total, counts), { impressions: 0, clicks: 0, spend: 0 });
      const ctr = sum.impressions > 0 ? (sum.clicks / sum.impressions) * 100 : null;
      return { ...sum, currency: row.currency, ctr };
    },
  };
}

function add(a: Partial<Counts> | undefined, b: Partial<Counts> | undefined): Counts {
  return {
    impressions: (a?.impressions ?? 0) + (b?.impressions ?? 0),
    clicks: (a?.clicks ?? 0) + (b?.clicks ?? 0),
    spend: (a?.spend ?? 0) + (b?.spend ?? 0),
  };
}
