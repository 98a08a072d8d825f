import { toMinorUnits } from '../../lib/money.js';
import type { PlatformPageOf } from '../../lib/pagination.js';
import {
  AdBreakdownNotEnabled,
  type AdInsights,
  type AdInsightsBreakdown,
  type AdInsightsQuery,
  type AdInsightsRow,
  AdInsightsTooLarge,
  AdObjectNotFoundAtPlatform,
  type AdQueryRefusal,
  type AdReportState,
} from '../capabilities/ad-insights.js';
import { minorCost } from '../ad-costs.js';
import { type RefusalRule, refusalOf } from '../capabilities/refusals.js';
import { classifyMetaError, type GraphErrorBody, type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import { SocialNetworkAdTargeting } from './ad-targeting.js';
import type { SocialNetworkClient } from './client.js';

type Query = Omit<AdInsightsQuery, 'fields' | 'currency' | 'timeZone'>;
type GraphRow = Record<string, unknown>;

/** Our breakdowns by the Graph's names; the hour of the day is the ad account's (not the viewer's). */
const BREAKDOWNS: Record<AdInsightsBreakdown, string> = {
  age: 'age',
  gender: 'gender',
  country: 'country',
  region: 'region',
  publisher_platform: 'publisher_platform',
  platform_position: 'platform_position',
  device_platform: 'device_platform',
  impression_device: 'impression_device',
  frequency_value: 'frequency_value',
  hourly: 'hourly_stats_aggregated_by_advertiser_time_zone',
};

/** The breakdowns the Marketing API combines: only within one of these groups. */
const GROUPS: ReadonlyArray<readonly AdInsightsBreakdown[]> = [
  ['age', 'gender'],
  ['country'],
  ['region'],
  ['publisher_platform', 'platform_position', 'device_platform', 'impression_device'],
  ['frequency_value'],
  ['hourly'],
];

const TIME_INCREMENT = { day: '1', week: '7', month: 'monthly', all: 'all_days' } as const;

/** The Graph's refusals of an insights query that mean something to the caller; anything else is classified as usual. */
const REFUSALS: ReadonlyArray<RefusalRule<'too_large' | 'not_enabled' | 'not_found'>> = [
  { words: /reduce the amount of data/i, means: 'too_large' },
  { code: 100, words: /breakdown \w+ .*enabled/i, means: 'not_enabled' },
  { code: 100, subcode: 33, means: 'not_found' },
];

function classifyInsights(status: number, body: unknown, headers?: Headers) {
  const error = (body as GraphErrorBody | undefined)?.error ?? {};
  const message = error.message ?? `the Graph API answered HTTP ${status}`;
  switch (refusalOf(REFUSALS, { code: error.code, subcode: error.error_subcode, message })) {
    case 'too_large':
      return new AdInsightsTooLarge(message);
    case 'not_enabled':
      return new AdBreakdownNotEnabled(
        (Object.keys(BREAKDOWNS) as AdInsightsBreakdown[]).find((name) => message.includes(BREAKDOWNS[name])) ?? 'hourly',
        message,
      );
    case 'not_found':
      return new AdObjectNotFoundAtPlatform(message);
    default:
      return classifyMetaError(status, body, headers);
  }
}

const REPORT_STATES: Record<string, AdReportState['status']> = {
  'Job Not Started': 'queued',
  'Job Started': 'running',
  'Job Running': 'running',
  'Job Completed': 'done',
  'Job Failed': 'failed',
  'Job Skipped': 'failed',
};

/** The Graph's parameters of a query, the same read at once (`GET`) or started as a report run (`POST`). */
function graphParams(query: AdInsightsQuery): Record<string, string> {
  const level = query.level;
  const ids = level === 'account' ? ['account_id', 'account_name'] : [`${level}_id`, `${level}_name`];
  return {
    level,
    fields: [...ids, ...query.fields].join(','),
    ...('preset' in query.period
      ? { date_preset: query.period.preset }
      : { time_range: JSON.stringify({ since: query.period.since, until: query.period.until }) }),
    time_increment: TIME_INCREMENT[query.timeIncrement],
    ...(query.breakdowns.length > 0 ? { breakdowns: query.breakdowns.map((name) => BREAKDOWNS[name]).join(',') } : {}),
    ...(query.attributionWindows.length > 0 ? { action_attribution_windows: JSON.stringify(query.attributionWindows) } : {}),
  };
}

/** A Graph count (a decimal string) as a number; absent stays absent. */
const count = (value: unknown): number | undefined => (value === undefined || value === null ? undefined : Number(value));

function actions(value: unknown, windows: readonly string[]): AdInsightsRow['actions'] {
  return ((value as GraphRow[] | undefined) ?? []).map((action) => {
    const byWindow = Object.fromEntries(windows.filter((w) => action[w] !== undefined).map((w) => [w, Number(action[w])]));
    return {
      actionType: String(action.action_type),
      value: Number(action.value ?? 0),
      ...(Object.keys(byWindow).length > 0 ? { byWindow } : {}),
    };
  });
}

/** The breakdown values of a Graph row, by our names. */
function breakdownsOf(raw: GraphRow, breakdowns: readonly AdInsightsBreakdown[]): AdInsightsRow['breakdowns'] {
  const value = (name: AdInsightsBreakdown) => String(raw[BREAKDOWNS[name]] ?? '');
  const out: NonNullable<AdInsightsRow['breakdowns']> = {};
  for (const name of breakdowns) {
    if (name === 'age') out.age = value(name);
    if (name === 'gender')
      out.gender = (['male', 'female'].includes(value(name)) ? value(name) : 'unknown') as 'male' | 'female' | 'unknown';
    if (name === 'country') out.country = value(name);
    if (name === 'region') out.region = value(name);
    if (name === 'publisher_platform') out.publisherPlatform = value(name);
    if (name === 'platform_position') out.platformPosition = value(name);
    if (name === 'device_platform') out.devicePlatform = value(name) === 'desktop' ? 'desktop' : 'mobile';
    if (name === 'impression_device') out.impressionDevice = value(name);
    if (name === 'frequency_value') out.frequencyValue = value(name);
    if (name === 'hourly') out.hour = value(name).slice(0, 5);
  }
  return out;
}

/** One Graph row in the contract's shape: only the metrics asked for, money in minor units. */
function rowOf(raw: GraphRow, query: AdInsightsQuery): AdInsightsRow {
  const level = query.level;
  const objectId = String(level === 'account' ? `act_${String(raw.account_id)}` : raw[`${level}_id`]);
  const row: AdInsightsRow = {
    objectId,
    level,
    name: (raw[`${level}_name`] as string | undefined) ?? null,
    dateStart: String(raw.date_start),
    dateStop: String(raw.date_stop),
    ...(query.breakdowns.length > 0 ? { breakdowns: breakdownsOf(raw, query.breakdowns) } : {}),
  };
  for (const field of query.fields) {
    if (field === 'impressions' || field === 'reach' || field === 'clicks') row[field] = count(raw[field]) ?? 0;
    if (field === 'frequency' || field === 'ctr') row[field] = count(raw[field]) ?? 0;
    if (field === 'spend') row.spend = toMinorUnits(String(raw.spend ?? '0'), query.currency);
    if (field === 'cpc' || field === 'cpm') row[field] = minorCost(raw[field], query.currency);
    if (field === 'actions' || field === 'conversions') row[field] = actions(raw[field], query.attributionWindows);
  }
  return row;
}

/**
 * The Marketing API's insights (`GET /{object}/insights`, the ad account's `act_…` when no object is named), its
 * asynchronous report runs (`POST /{object}/insights` → `report_run_id`, polled, then `GET /{run}/insights`) and,
 * through `SocialNetworkAdTargeting`, its targeting searches.
 */
export class SocialNetworkAdInsights extends SocialNetworkAdTargeting implements AdInsights {
  constructor(client: SocialNetworkClient) {
    super(client);
  }

  refusal(query: Query): AdQueryRefusal | null {
    const { breakdowns } = query;
    if (breakdowns.length > 1 && !GROUPS.some((group) => breakdowns.every((name) => group.includes(name)))) {
      return {
        member: 'breakdowns',
        message: `the platform does not combine ${breakdowns.join(', ')}: age and gender go together; country, region, frequency_value and hourly each go alone; publisher_platform, platform_position, device_platform and impression_device go together.`,
      };
    }
    if (breakdowns.includes('platform_position') && !breakdowns.includes('publisher_platform')) {
      return { member: 'breakdowns', message: 'platform_position needs publisher_platform beside it.' };
    }
    return null;
  }

  unsupported(query: Query): ReturnType<AdInsights['unsupported']> {
    if (!query.breakdowns.includes('hourly')) return {};
    const reason = 'the platform does not count distinct people by hour of the day.';
    return { reach: reason, frequency: reason };
  }

  async read(account: AdapterAccount, query: AdInsightsQuery, page: { limit: number; after: string | undefined }) {
    const list = await this.client.call<GraphList<GraphRow>>(
      'GET',
      `${query.object?.id ?? account.platformAccountId}/insights`,
      { token: account.credentials.accessToken, query: { ...graphParams(query), limit: page.limit, after: page.after } },
      classifyInsights,
    );
    return this.page(list, query);
  }

  async startReport(account: AdapterAccount, query: AdInsightsQuery): Promise<string> {
    const run = await this.client.call<{ report_run_id: string }>(
      'POST',
      `${query.object?.id ?? account.platformAccountId}/insights`,
      { token: account.credentials.accessToken, form: graphParams(query) },
      classifyInsights,
    );
    return String(run.report_run_id);
  }

  async reportState(account: AdapterAccount, reportId: string): Promise<AdReportState> {
    const run = await this.client.call<{ async_status?: string; async_percent_completion?: number }>(
      'GET',
      reportId,
      { token: account.credentials.accessToken, query: { fields: 'async_status,async_percent_completion' } },
      classifyInsights,
    );
    const status = REPORT_STATES[run.async_status ?? ''] ?? 'running';
    if (status === 'failed') return { status, message: `the report run ended "${run.async_status}"` };
    if (status === 'done') return { status };
    return { status, percentComplete: Math.min(100, Math.max(0, Math.round(run.async_percent_completion ?? 0))) };
  }

  async reportRows(account: AdapterAccount, reportId: string, query: AdInsightsQuery, page: { limit: number; after: string | undefined }) {
    const list = await this.client.call<GraphList<GraphRow>>(
      'GET',
      `${reportId}/insights`,
      { token: account.credentials.accessToken, query: { limit: page.limit, after: page.after } },
      classifyInsights,
    );
    return this.page(list, query);
  }

  private page(list: GraphList<GraphRow>, query: AdInsightsQuery): PlatformPageOf<AdInsightsRow> {
    return { data: list.data.map((raw) => rowOf(raw, query)), next: nextCursorOf(list) };
  }
}
