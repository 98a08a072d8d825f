import { toMinorUnits } from '../../lib/money.js';
import type { PlatformPageOf } from '../../lib/pagination.js';
import { minorCost } from '../ad-costs.js';
import { presetRange } from '../ad-periods.js';
import {
  type AdInsights,
  type AdInsightsBreakdown,
  type AdInsightsQuery,
  type AdInsightsRow,
  AdInsightsTooLarge,
  AdObjectNotFoundAtPlatform,
  type AdQueryRefusal,
  type AdReportState,
} from '../capabilities/ad-insights.js';
import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';
import type { AdapterAccount } from '../types.js';
import { ShortVideoAdsAdTargeting } from './ad-targeting.js';
import type { BusinessApiClient } from './client.js';

type Query = Omit<AdInsightsQuery, 'fields' | 'currency' | 'timeZone'>;
type Values = Record<string, string | number | null | undefined>;
interface ReportRow {
  dimensions: Values;
  metrics: Values;
}
interface ReportPage {
  list?: ReportRow[];
  page_info?: { page?: number; total_page?: number };
}

const DATA_LEVELS = { account: 'AUCTION_ADVERTISER', campaign: 'AUCTION_CAMPAIGN', adset: 'AUCTION_ADGROUP', ad: 'AUCTION_AD' } as const;
/** Each level's id dimension and name metric; an advertiser has no name metric. */
const LEVEL_IDS = { account: 'advertiser_id', campaign: 'campaign_id', adset: 'adgroup_id', ad: 'ad_id' } as const;
const LEVEL_NAMES = { account: null, campaign: 'campaign_name', adset: 'adgroup_name', ad: 'ad_name' } as const;
const FILTERS = { campaign: 'campaign_ids', adset: 'adgroup_ids', ad: 'ad_ids' } as const;
/** Our breakdowns by the audience report's dimensions; the others the API does not report by. */
const DIMENSIONS: Partial<Record<AdInsightsBreakdown, string>> = {
  age: 'age',
  gender: 'gender',
  country: 'country_code',
  region: 'province_id',
  publisher_platform: 'placement',
  device_platform: 'platform',
};
const METRICS: Record<string, string[]> = {
  impressions: ['impressions'],
  reach: ['reach'],
  frequency: ['frequency'],
  clicks: ['clicks'],
  spend: ['spend'],
  ctr: ['ctr'],
  cpc: ['cpc'],
  cpm: ['cpm'],
  conversions: ['conversion'],
};
/** The range of days one synchronous daily report covers; longer ones are report tasks. */
const MAX_DAILY_DAYS = 30;
const TASK_STATES: Record<string, AdReportState['status']> = {
  QUEUING: 'queued',
  PROCESSING: 'running',
  SUCCESS: 'done',
  FAILED: 'failed',
  CANCELED: 'failed',
};

const AGES: Record<string, string> = {
  AGE_13_17: '13-17',
  AGE_18_24: '18-24',
  AGE_25_34: '25-34',
  AGE_35_44: '35-44',
  AGE_45_54: '45-54',
  AGE_55_100: '55+',
};

function breakdownsOf(dimensions: Values, breakdowns: readonly AdInsightsBreakdown[]): AdInsightsRow['breakdowns'] {
  const value = (name: AdInsightsBreakdown) => String(dimensions[DIMENSIONS[name]!] ?? '');
  const out: NonNullable<AdInsightsRow['breakdowns']> = {};
  for (const name of breakdowns) {
    if (name === 'age') out.age = AGES[value(name)] ?? value(name);
    if (name === 'gender') out.gender = value(name) === 'MALE' ? 'male' : value(name) === 'FEMALE' ? 'female' : 'unknown';
    if (name === 'country') out.country = value(name);
    if (name === 'region') out.region = value(name);
    if (name === 'publisher_platform')
      out.publisherPlatform = value(name)
        .replace(/^PLACEMENT_/, '')
        .toLowerCase();
    if (name === 'device_platform') out.devicePlatform = value(name) === 'PC' ? 'desktop' : 'mobile';
  }
  return out;
}

function rowOf(raw: ReportRow, query: AdInsightsQuery, since: string, until: string): AdInsightsRow {
  const { level } = query;
  const day = raw.dimensions.stat_time_day ? String(raw.dimensions.stat_time_day).slice(0, 10) : null;
  const name = LEVEL_NAMES[level];
  const row: AdInsightsRow = {
    objectId: String(raw.dimensions[LEVEL_IDS[level]]),
    level,
    name: name ? String(raw.metrics[name] ?? '') || null : null,
    dateStart: day ?? since,
    dateStop: day ?? until,
    ...(query.breakdowns.length > 0 ? { breakdowns: breakdownsOf(raw.dimensions, query.breakdowns) } : {}),
  };
  const number = (metric: string) => Number(raw.metrics[metric] ?? 0);
  for (const field of query.fields) {
    if (field === 'impressions' || field === 'reach' || field === 'clicks' || field === 'frequency' || field === 'ctr')
      row[field] = number(field);
    if (field === 'spend') row.spend = toMinorUnits(String(raw.metrics.spend ?? '0'), query.currency);
    if (field === 'cpc' || field === 'cpm') row[field] = number(field) > 0 ? minorCost(raw.metrics[field], query.currency) : null;
    if (field === 'conversions') row.conversions = [{ actionType: 'conversion', value: number('conversion') }];
  }
  return row;
}

/**
 * The TikTok Business API's reports: `report/integrated/get/` (BASIC, or AUDIENCE with breakdowns) at the
 * advertiser, campaign, ad group or ad level, by day (`stat_time_day`) or for the whole period; longer daily
 * ranges as report tasks (`report/task/create/`, `check/`, rows from `download/`); and, through
 * `ShortVideoAdsAdTargeting`, its targeting tools. Amounts are decimals of the advertiser's currency.
 */
export class ShortVideoAdsAdInsights extends ShortVideoAdsAdTargeting implements AdInsights {
  constructor(client: BusinessApiClient, apiUrl: string) {
    super(client, apiUrl);
  }

  refusal(query: Query): AdQueryRefusal | null {
    if (query.timeIncrement === 'week' || query.timeIncrement === 'month')
      return { member: 'timeIncrement', message: 'the platform reports by day or for the whole period only (day, all).' };
    if (query.attributionWindows.length > 0)
      return {
        member: 'attributionWindows',
        message: "the platform reports in each ad group's own attribution window; leave attributionWindows out.",
      };
    const lacking = query.breakdowns.filter((name) => !DIMENSIONS[name]);
    if (lacking.length > 0) return { member: 'breakdowns', message: `the platform does not report by ${lacking.join(', ')}.` };
    const alone = query.breakdowns.length > 1 && !query.breakdowns.every((name) => name === 'age' || name === 'gender');
    if (alone) return { member: 'breakdowns', message: 'the platform combines age and gender only; every other breakdown goes alone.' };
    return null;
  }

  unsupported(query: Query): ReturnType<AdInsights['unsupported']> {
    const out: ReturnType<AdInsights['unsupported']> = { actions: 'the platform reports no actions by type; ask for conversions.' };
    if (query.breakdowns.length > 0) {
      const reason = 'the platform does not count distinct people in its audience breakdowns.';
      out.reach = reason;
      out.frequency = reason;
    }
    return out;
  }

  async read(account: AdapterAccount, query: AdInsightsQuery, page: { limit: number; after: string | undefined }) {
    const { since, until } = this.range(query);
    if (query.timeIncrement === 'day' && daysIn(since, until) > MAX_DAILY_DAYS)
      throw new AdInsightsTooLarge(`a daily report covers at most ${MAX_DAILY_DAYS} days at once`);
    const at = Number(page.after ?? 1) || 1;
    const params = { ...this.reportParams(account, query), page: at, page_size: page.limit };
    const answer = await this.client.call<ReportPage>(`/report/integrated/get/?${queryString(params)}`, {
      accessToken: account.credentials.accessToken,
    });
    const last = answer.page_info?.total_page ?? 1;
    return { data: (answer.list ?? []).map((raw) => rowOf(raw, query, since, until)), next: at < last ? String(at + 1) : null };
  }

  async startReport(account: AdapterAccount, query: AdInsightsQuery): Promise<string> {
    const task = await this.client.call<{ task_id?: string | number }>('/report/task/create/', {
      method: 'POST',
      accessToken: account.credentials.accessToken,
      body: this.reportParams(account, query),
    });
    if (task.task_id === undefined) throw new PlatformError('transient', 'the report task answer carries no task_id');
    return String(task.task_id);
  }

  async reportState(account: AdapterAccount, reportId: string): Promise<AdReportState> {
    const params = queryString({ advertiser_id: account.platformAccountId, task_id: reportId });
    const task = await this.client
      .call<{ status?: string; percent?: number }>(`/report/task/check/?${params}`, { accessToken: account.credentials.accessToken })
      .catch((error: unknown) => {
        if (error instanceof PlatformError && error.details.platformCode === 40002) throw new AdObjectNotFoundAtPlatform(error.message);
        throw error;
      });
    const status = TASK_STATES[task.status ?? ''] ?? 'running';
    if (status === 'failed') return { status, message: `the report task ended ${task.status}` };
    if (status === 'done') return { status };
    return { status, percentComplete: Math.min(100, Math.max(0, Math.round(task.percent ?? 0))) };
  }

  /** A finished task's file: rows, paged here (the platform gives the whole file at once). */
  async reportRows(account: AdapterAccount, reportId: string, query: AdInsightsQuery, page: { limit: number; after: string | undefined }) {
    const rows = await this.downloadReport(account, reportId);
    const { since, until } = this.range(query);
    const from = Number(page.after ?? 0) || 0;
    const data = rows.slice(from, from + page.limit).map((raw) => rowOf(raw, query, since, until));
    return { data, next: from + page.limit < rows.length ? String(from + page.limit) : null } satisfies PlatformPageOf<AdInsightsRow>;
  }

  /** The task's file (CSV: a header of dimension and metric names, a line per row), read as the rows of a report. */
  private async downloadReport(account: AdapterAccount, reportId: string): Promise<ReportRow[]> {
    const params = queryString({ advertiser_id: account.platformAccountId, task_id: reportId });
    const response = await callPlatform<unknown>(`${this.apiUrl}/report/task/download/?${params}`, {
      headers: { 'Access-Token': account.credentials.accessToken },
    });
    if (response.status !== 200 || typeof response.body !== 'string')
      throw new AdObjectNotFoundAtPlatform(`the report task's file could not be read (HTTP ${response.status})`);
    const [columns = [], ...lines] = csvRows(response.body);
    const dimensions = new Set(['advertiser_id', 'campaign_id', 'adgroup_id', 'ad_id', 'stat_time_day', ...Object.values(DIMENSIONS)]);
    return lines.map((cells) => {
      const row: ReportRow = { dimensions: {}, metrics: {} };
      columns.forEach((column, i) => ((dimensions.has(column) ? row.dimensions : row.metrics)[column] = cells[i]));
      return row;
    });
  }

  private range(query: AdInsightsQuery): { since: string; until: string } {
    // The contract's presets are all the platform's own names too: every one has a range.
    return 'preset' in query.period ? presetRange(query.period.preset, query.timeZone)! : query.period;
  }

  /** The report's parameters, the same read at once or run as a task: list parameters as JSON. */
  private reportParams(account: AdapterAccount, query: AdInsightsQuery): Record<string, unknown> {
    const { since, until } = this.range(query);
    const breakdowns = query.breakdowns.map((name) => DIMENSIONS[name]!);
    const dimensions = [LEVEL_IDS[query.level], ...(query.timeIncrement === 'day' ? ['stat_time_day'] : []), ...breakdowns];
    const name = LEVEL_NAMES[query.level];
    const metrics = [...query.fields.flatMap((field) => METRICS[field] ?? []), ...(name ? [name] : [])];
    const object = query.object;
    return {
      advertiser_id: account.platformAccountId,
      report_type: breakdowns.length > 0 ? 'AUDIENCE' : 'BASIC',
      data_level: DATA_LEVELS[query.level],
      dimensions,
      metrics,
      start_date: since,
      end_date: until,
      ...(object
        ? { filtering: [{ field_name: FILTERS[object.level], filter_type: 'IN', filter_value: JSON.stringify([object.id]) }] }
        : {}),
    };
  }
}

/** Days from `since` to `until`, both included. */
function daysIn(since: string, until: string): number {
  return Math.round((Date.parse(until) - Date.parse(since)) / 86_400_000) + 1;
}

/** GET parameters as the Business API takes them: list and object values JSON-encoded. */
function queryString(params: Record<string, unknown>): string {
  return new URLSearchParams(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]),
  ).toString();
}

/** RFC 4180 CSV: fields separated by commas, quoted where they hold one (a name), `""` a quote inside quotes. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\n') {
      rows.push([...row, field.replace(/\r$/, '')]);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
