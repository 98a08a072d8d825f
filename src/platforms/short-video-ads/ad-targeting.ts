import type { PlatformPageOf } from '../../lib/pagination.js';
import {
  type AdLocation,
  type AdOptimizationGoal,
  type AdReachBounds,
  type AdTargeting,
  type AdTargetingOption,
} from '../capabilities/ad-insights.js';
import { AdRefused } from '../capabilities/ad-campaigns.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import { targetingBody } from './campaign-requests.js';
import type { BusinessApiClient } from './client.js';

interface Region {
  location_id: string;
  name: string;
  region_code: string;
  level: string;
  parent_id: string;
}

interface Category {
  id: string;
  name: string;
  parentId: string | null;
}

const LEVELS: Record<string, AdLocation['type']> = { COUNTRY: 'country', PROVINCE: 'region', CITY: 'city' };
/** The placement and objective the tools are asked for: the in-feed placement every objective has. */
const PLACEMENT = { placements: ['PLACEMENT_TIKTOK'], objective_type: 'REACH' };
const json = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]),
  ).toString();

/** One page of a list the platform gives whole, by offset. */
function slice<T>(items: T[], page: { limit: number; after: string | undefined }): PlatformPageOf<T> {
  const from = Number(page.after ?? 0) || 0;
  return { data: items.slice(from, from + page.limit), next: from + page.limit < items.length ? String(from + page.limit) : null };
}

/** Categories with their path from the top of the platform's tree, those whose name or path holds the words. */
function matching(categories: Category[], q: string | undefined, type: AdTargetingOption['type']): AdTargetingOption[] {
  const byId = new Map(categories.map((category) => [category.id, category]));
  const pathOf = (category: Category): string[] => {
    const parent = category.parentId ? byId.get(category.parentId) : undefined;
    return [...(parent ? pathOf(parent) : []), category.name];
  };
  const words = q?.toLowerCase();
  return categories
    .map((category) => ({ category, path: pathOf(category) }))
    .filter(({ path }) => !words || path.some((name) => name.toLowerCase().includes(words)))
    .map(({ category, path }) => ({
      id: category.id,
      name: category.name,
      type,
      path,
      audienceSizeLowerBound: null,
      audienceSizeUpperBound: null,
    }));
}

/**
 * The Business API's targeting tools: its locations (`tool/region/`, whole, searched here by name), its interest
 * categories (`tool/interest_category/`) and action categories (`tool/action_category/`, the behaviours: what people
 * did with videos, creators, hashtags), and its audience size estimate for a spec (`ad/audience_size/estimate/`).
 */
export class ShortVideoAdsAdTargeting {
  constructor(
    protected readonly client: BusinessApiClient,
    protected readonly apiUrl: string,
  ) {}

  async locations(
    account: AdapterAccount,
    search: { q: string; types: AdLocation['type'][]; countryCode: string | undefined },
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdLocation>> {
    const regions = await this.regions(account);
    const byId = new Map(regions.map((region) => [region.location_id, region]));
    const countryOf = (region: Region): Region | undefined =>
      region.level === 'COUNTRY' ? region : countryOf(byId.get(region.parent_id)!);
    const q = search.q.toLowerCase();
    const found = regions.flatMap((region): AdLocation[] => {
      const type = LEVELS[region.level];
      const country = type ? countryOf(region) : undefined;
      if (!type || !country || !search.types.includes(type) || !region.name.toLowerCase().startsWith(q)) return [];
      if (search.countryCode && country.region_code !== search.countryCode) return [];
      const parent = type === 'city' ? byId.get(region.parent_id) : undefined;
      return [
        {
          key: region.location_id,
          name: region.name,
          type,
          countryCode: country.region_code,
          countryName: country.name,
          region: parent?.name ?? null,
          regionKey: parent?.location_id ?? null,
        },
      ];
    });
    return slice(found, page);
  }

  async interests(account: AdapterAccount, q: string, page: { limit: number; after: string | undefined }) {
    const answer = await this.client.call<{
      interest_categories?: Array<{ interest_category_id: string; interest_category_name: string; sub_category_ids?: string[] }>;
    }>(`/tool/interest_category/?${json({ advertiser_id: account.platformAccountId, ...PLACEMENT })}`, {
      accessToken: account.credentials.accessToken,
    });
    const raw = answer.interest_categories ?? [];
    const parents = new Map(raw.flatMap((c) => (c.sub_category_ids ?? []).map((child) => [child, c.interest_category_id] as const)));
    const categories = raw.map((c) => ({
      id: c.interest_category_id,
      name: c.interest_category_name,
      parentId: parents.get(c.interest_category_id) ?? null,
    }));
    return slice(matching(categories, q, 'interest'), page);
  }

  async behaviors(account: AdapterAccount, q: string | undefined, page: { limit: number; after: string | undefined }) {
    const answer = await this.client.call<{
      action_categories?: Array<{ action_category_id: string; name: string; sub_category_ids?: string[] }>;
    }>(`/tool/action_category/?${json({ advertiser_id: account.platformAccountId, ...PLACEMENT })}`, {
      accessToken: account.credentials.accessToken,
    });
    const raw = answer.action_categories ?? [];
    const parents = new Map(raw.flatMap((c) => (c.sub_category_ids ?? []).map((child) => [child, c.action_category_id] as const)));
    const categories = raw.map((c) => ({ id: c.action_category_id, name: c.name, parentId: parents.get(c.action_category_id) ?? null }));
    return slice(matching(categories, q, 'behavior'), page);
  }

  async reachEstimate(account: AdapterAccount, targeting: AdTargeting, _goal: AdOptimizationGoal | undefined): Promise<AdReachBounds> {
    if (targeting.geoLocations.zips?.length) throw new AdRefused('targeting.geoLocations.zips', 'short_video_ads targets no postal codes.');
    const regions = await this.regions(account);
    const countryIds = new Map(regions.filter((r) => r.level === 'COUNTRY').map((r) => [r.region_code, r.location_id]));
    const answer = await this.client
      .call<{ user_count?: { lower_end?: number; upper_end?: number } }>('/ad/audience_size/estimate/', {
        method: 'POST',
        accessToken: account.credentials.accessToken,
        body: {
          advertiser_id: account.platformAccountId,
          ...PLACEMENT,
          ...targetingBody(targeting, countryIds),
          action_category_ids: (targeting.behaviors ?? []).map((behavior) => behavior.id),
        },
      })
      .catch((error: unknown) => {
        if (error instanceof PlatformError && error.details.platformCode === 40002) throw new AdRefused('targeting', error.message, 40002);
        throw error;
      });
    return { lower: answer.user_count?.lower_end ?? 0, upper: answer.user_count?.upper_end ?? 0, ready: true };
  }

  /** Every location the advertiser may target, countries to cities. */
  private async regions(account: AdapterAccount): Promise<Region[]> {
    const answer = await this.client.call<{ region_info?: Region[] }>(
      `/tool/region/?${json({ advertiser_id: account.platformAccountId, ...PLACEMENT, level_range: 'TO_CITY' })}`,
      { accessToken: account.credentials.accessToken },
    );
    return answer.region_info ?? [];
  }
}
