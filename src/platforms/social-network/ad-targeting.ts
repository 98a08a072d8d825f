import type { PlatformPageOf } from '../../lib/pagination.js';
import {
  type AdLocation,
  type AdOptimizationGoal,
  type AdReachBounds,
  type AdTargeting,
  type AdTargetingOption,
} from '../capabilities/ad-insights.js';
import { AdRefused } from '../capabilities/ad-campaigns.js';
import { classifyMetaError, type GraphErrorBody, type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';

interface GraphLocation {
  key: string;
  name: string;
  type: string;
  country_code?: string;
  country_name?: string;
  region?: string;
  region_id?: number | string;
}

interface GraphTargetingOption {
  id: string;
  name: string;
  path?: string[];
  audience_size_lower_bound?: number;
  audience_size_upper_bound?: number;
}

interface DeliveryEstimate {
  estimate_mau_lower_bound?: number;
  estimate_mau_upper_bound?: number;
  estimate_ready?: boolean;
}

const LOCATION_TYPES = new Set<string>(['country', 'region', 'city', 'zip']);

/**
 * A targeting spec in the Graph's words (`geo_locations`, `age_min`, `genders` 1 male 2 female, `{id}` lists),
 * as ad sets and estimates take it; languages are the platform's locale keys (`GET /ads/targeting/locales`).
 */
export function graphTargeting(targeting: AdTargeting): Record<string, unknown> {
  const geo = targeting.geoLocations;
  const ids = (list: Array<{ id: string }> | string[] | undefined) =>
    list && list.length > 0 ? list.map((item) => ({ id: typeof item === 'string' ? item : item.id })) : undefined;
  const spec: Record<string, unknown> = {
    geo_locations: {
      ...(geo.countries ? { countries: geo.countries } : {}),
      ...(geo.regions ? { regions: geo.regions.map(({ key }) => ({ key })) } : {}),
      ...(geo.cities
        ? {
            cities: geo.cities.map(({ key, radius, distanceUnit }) =>
              radius ? { key, radius, distance_unit: distanceUnit ?? 'kilometer' } : { key },
            ),
          }
        : {}),
      ...(geo.zips ? { zips: geo.zips.map(({ key }) => ({ key })) } : {}),
    },
    age_min: targeting.ageMin,
    age_max: targeting.ageMax,
    genders: targeting.genders?.map((gender) => (gender === 'male' ? 1 : 2)),
    interests: ids(targeting.interests),
    behaviors: ids(targeting.behaviors),
    locales: targeting.locales?.length ? targeting.locales.map(Number) : undefined,
    custom_audiences: ids(targeting.customAudiences),
    excluded_custom_audiences: ids(targeting.excludedCustomAudiences),
  };
  return Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== undefined));
}

/** The Graph refuses a targeting spec with (#100) naming what it cannot use: our 422, with its words. */
function classifyTargeting(status: number, body: unknown, headers?: Headers) {
  const error = (body as GraphErrorBody | undefined)?.error;
  if (error?.code === 100 && error.error_subcode !== 33)
    return new AdRefused('targeting', error.message ?? 'invalid targeting spec', error.code, error.error_subcode ?? null);
  return classifyMetaError(status, body, headers);
}

function option(raw: GraphTargetingOption, type: AdTargetingOption['type']): AdTargetingOption {
  return {
    id: String(raw.id),
    name: raw.name,
    type,
    path: raw.path ?? [raw.name],
    audienceSizeLowerBound: raw.audience_size_lower_bound ?? null,
    audienceSizeUpperBound: raw.audience_size_upper_bound ?? null,
  };
}

/**
 * The Marketing API's targeting searches: places (`GET /search?type=adgeolocation`), interests
 * (`type=adinterest`), behaviours (`type=adTargetingCategory&class=behaviors`, the whole list at once, searched and
 * paged here by offset) and the ad account's delivery estimate for a spec.
 */
export class SocialNetworkAdTargeting {
  constructor(protected readonly client: SocialNetworkClient) {}

  async locations(
    account: AdapterAccount,
    search: { q: string; types: AdLocation['type'][]; countryCode: string | undefined },
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdLocation>> {
    const list = await this.client.call<GraphList<GraphLocation>>('GET', 'search', {
      token: account.credentials.accessToken,
      query: {
        type: 'adgeolocation',
        q: search.q,
        location_types: JSON.stringify(search.types),
        country_code: search.countryCode,
        limit: page.limit,
        after: page.after,
      },
    });
    const places = list.data.filter((place) => LOCATION_TYPES.has(place.type) && /^[A-Z]{2}$/.test(place.country_code ?? ''));
    return {
      data: places.map((place) => {
        const inRegion = place.type === 'city' || place.type === 'zip';
        return {
          key: String(place.key),
          name: place.name,
          type: place.type as AdLocation['type'],
          countryCode: place.country_code!,
          countryName: place.country_name ?? place.country_code!,
          region: inRegion ? (place.region ?? null) : null,
          regionKey: inRegion && place.region_id !== undefined ? String(place.region_id) : null,
        };
      }),
      next: nextCursorOf(list),
    };
  }

  async interests(account: AdapterAccount, q: string, page: { limit: number; after: string | undefined }) {
    const list = await this.client.call<GraphList<GraphTargetingOption>>('GET', 'search', {
      token: account.credentials.accessToken,
      query: { type: 'adinterest', q, limit: page.limit, after: page.after },
    });
    return { data: list.data.map((raw) => option(raw, 'interest')), next: nextCursorOf(list) };
  }

  async locales(account: AdapterAccount, q: string, page: { limit: number; after: string | undefined }) {
    const list = await this.client.call<GraphList<{ key: number | string; name: string }>>('GET', 'search', {
      token: account.credentials.accessToken,
      query: { type: 'adlocale', q, limit: page.limit, after: page.after },
    });
    return { data: list.data.map(({ key, name }) => option({ id: String(key), name }, 'locale')), next: nextCursorOf(list) };
  }

  async behaviors(account: AdapterAccount, q: string | undefined, page: { limit: number; after: string | undefined }) {
    const list = await this.client.call<GraphList<GraphTargetingOption>>('GET', 'search', {
      token: account.credentials.accessToken,
      query: { type: 'adTargetingCategory', class: 'behaviors' },
    });
    const words = q?.toLowerCase();
    const matching = list.data.filter(
      (raw) => !words || [raw.name, ...(raw.path ?? [])].some((name) => name.toLowerCase().includes(words)),
    );
    const from = Number(page.after ?? 0) || 0;
    const data = matching.slice(from, from + page.limit).map((raw) => option(raw, 'behavior'));
    return { data, next: from + page.limit < matching.length ? String(from + page.limit) : null };
  }

  async reachEstimate(
    account: AdapterAccount,
    targeting: AdTargeting,
    optimizationGoal: AdOptimizationGoal | undefined,
  ): Promise<AdReachBounds> {
    const answer = await this.client.call<GraphList<DeliveryEstimate>>(
      'GET',
      `${account.platformAccountId}/delivery_estimate`,
      {
        token: account.credentials.accessToken,
        query: { targeting_spec: JSON.stringify(graphTargeting(targeting)), optimization_goal: optimizationGoal ?? 'REACH' },
      },
      classifyTargeting,
    );
    const estimate = answer.data[0] ?? {};
    return {
      lower: estimate.estimate_mau_lower_bound ?? 0,
      upper: estimate.estimate_mau_upper_bound ?? 0,
      ready: estimate.estimate_ready ?? true,
    };
  }
}
