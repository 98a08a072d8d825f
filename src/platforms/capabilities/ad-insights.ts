import type { components } from '../../../generated/api.js';
import type { PlatformPageOf } from '../../lib/pagination.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

type Schemas = components['schemas'];
export type AdInsightsField = Schemas['AdInsightsField'];
export type AdInsightsBreakdown = Schemas['AdInsightsBreakdown'];
export type AdAttributionWindow = Schemas['AdAttributionWindow'];
export type AdInsightsRow = Schemas['AdInsightsRow'];
export type AdRowLevel = AdInsightsRow['level'];
export type AdLocation = Schemas['AdLocation'];
export type AdTargetingOption = Schemas['AdTargetingOption'];
export type AdTargeting = Schemas['AdTargeting'];
export type AdOptimizationGoal = Schemas['AdOptimizationGoal'];
export type AdDatePreset =
  | 'today'
  | 'yesterday'
  | 'last_3d'
  | 'last_7d'
  | 'last_14d'
  | 'last_28d'
  | 'last_30d'
  | 'last_90d'
  | 'this_month'
  | 'last_month'
  | 'this_year'
  | 'maximum';
export type AdTimeIncrement = 'day' | 'week' | 'month' | 'all';

/** One insights query as the area hands it on: checked against the contract's rules and the platform's limits already. */
export interface AdInsightsQuery {
  /** The level of the rows. */
  level: AdRowLevel;
  /** The campaign, ad set or ad reported on; null for the whole ad account. */
  object: { id: string; level: Exclude<AdRowLevel, 'account'> } | null;
  /** The metrics to read: those asked for that the platform gives for this query. */
  fields: AdInsightsField[];
  period: { preset: AdDatePreset } | { since: string; until: string };
  timeIncrement: AdTimeIncrement;
  breakdowns: AdInsightsBreakdown[];
  attributionWindows: AdAttributionWindow[];
  /** The ad account's ISO 4217 currency: the platform's amounts become its minor units. */
  currency: string;
  /** The ad account's time zone (IANA), which its days and date presets are in. */
  timeZone: string;
}

/** Why a platform cannot answer a query: the query member at fault, and the platform's limit in words. */
export interface AdQueryRefusal {
  member: 'breakdowns' | 'timeIncrement' | 'attributionWindows';
  message: string;
}

/** A report the platform computes in the background: still going, ready, or failed. */
export type AdReportState =
  { status: 'queued' | 'running'; percentComplete: number } | { status: 'done' } | { status: 'failed'; message: string };

export interface AdReachBounds {
  lower: number;
  upper: number;
  /** False while the platform is still computing a first estimate. */
  ready: boolean;
}

/** The platform will not answer the query at once (too many rows): it must be a report computed in the background. */
export class AdInsightsTooLarge extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** The platform refused a breakdown the ad account must enable first (Meta's opt-in breakdowns since 2026-08-03). */
export class AdBreakdownNotEnabled extends PlatformError {
  constructor(
    readonly breakdown: AdInsightsBreakdown,
    message: string,
  ) {
    super('invalid_request', message);
  }
}

/** The platform has no such campaign, ad set, ad or report in the ad account (any more). */
export class AdObjectNotFoundAtPlatform extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/**
 * Ad insights and the targeting searches, the same on every ad platform, for a connected ad account (an
 * `AdapterAccount` whose `platformAccountId` is the ad account's id there). Money comes back in minor units of
 * the query's currency, counts as numbers; a platform's refusal is one of the classes above.
 */
export interface AdInsights {
  /** Why the platform cannot answer the query as asked (breakdowns it does not combine, a time increment it lacks); null when it can. */
  refusal(query: Omit<AdInsightsQuery, 'fields' | 'currency' | 'timeZone'>): AdQueryRefusal | null;
  /** The metrics it does not give for this query (never a zero in their place), with why. */
  unsupported(query: Omit<AdInsightsQuery, 'fields' | 'currency' | 'timeZone'>): Partial<Record<AdInsightsField, string>>;
  /** One page of rows, in time order then by object; `AdInsightsTooLarge` when the platform wants a report run instead. */
  read(
    account: AdapterAccount,
    query: AdInsightsQuery,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdInsightsRow>>;
  /** Starts the query as a report computed in the background: the platform's id of it. */
  startReport(account: AdapterAccount, query: AdInsightsQuery): Promise<string>;
  reportState(account: AdapterAccount, reportId: string): Promise<AdReportState>;
  /** One page of a finished report's rows (the query it was started with presents them). */
  reportRows(
    account: AdapterAccount,
    reportId: string,
    query: AdInsightsQuery,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdInsightsRow>>;
  /** Places targeting can name, best match first. */
  locations(
    account: AdapterAccount,
    search: { q: string; types: AdLocation['type'][]; countryCode: string | undefined },
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdLocation>>;
  /** Interests matching `q`, best match first. */
  interests(
    account: AdapterAccount,
    q: string,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdTargetingOption>>;
  /** Behaviours (all, or those matching `q`). */
  behaviors(
    account: AdapterAccount,
    q: string | undefined,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdTargetingOption>>;
  /**
   * Languages matching `q`, by the keys targeting names them with; absent where targeting takes language tags as
   * they are (nothing to search).
   */
  locales?(
    account: AdapterAccount,
    q: string,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<AdTargetingOption>>;
  /** How many people the targeting reaches; `AdRefused` (naming the targeting member) for a spec the platform refuses. */
  reachEstimate(account: AdapterAccount, targeting: AdTargeting, optimizationGoal: AdOptimizationGoal | undefined): Promise<AdReachBounds>;
}
