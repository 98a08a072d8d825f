import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { currencyExponent, fromMinorUnits } from '../../lib/money.js';
import { type AdDay, addDays, adDay, breakdownCells, buckets, reachOf, shareOf } from '../ad-figures.js';

/** What the reports read of an advertiser. */
interface ReportAdvertiser {
  advertiser_id: string;
  name?: string;
  currency?: string;
}

/** What the reports need of the Business API's answers: its envelope, and the advertiser a call names (or the refusal written). */
export interface ReportApi {
  answer(ctx: RouterContext, code: number, message: string, data?: unknown): void;
  advertiser(ctx: RouterContext, id: unknown): ReportAdvertiser | null;
}

/** The campaign tree as the reports read it: each object with its advertiser, its parents and its name. */
interface TreeObject {
  advertiser_id: string;
  campaign_id?: string;
  adgroup_id?: string;
  ad_id?: string;
  campaign_name?: string;
  adgroup_name?: string;
  ad_name?: string;
}
export interface ReportTree {
  campaigns: Map<string, TreeObject>;
  adgroups: Map<string, TreeObject>;
  ads: Map<string, TreeObject>;
}

interface Task {
  advertiserId: string;
  params: Record<string, unknown>;
  checks: number;
}

/** What the reports keep across a restart: their tasks. */
export interface ReportsState {
  tasks: Map<string, Task>;
  nextTaskId: number;
}

const LEVEL_IDS: Record<string, string> = {
  AUCTION_ADVERTISER: 'advertiser_id',
  AUCTION_CAMPAIGN: 'campaign_id',
  AUCTION_ADGROUP: 'adgroup_id',
  AUCTION_AD: 'ad_id',
};
const NAMES: Record<string, string> = { campaign_id: 'campaign_name', adgroup_id: 'adgroup_name', ad_id: 'ad_name' };
/** The audience report's dimensions and their values. */
const AUDIENCE: Record<string, readonly string[]> = {
  age: ['AGE_13_17', 'AGE_18_24', 'AGE_25_34', 'AGE_35_44', 'AGE_45_54', 'AGE_55_100'],
  gender: ['MALE', 'FEMALE', 'NONE'],
  country_code: ['US', 'DE', 'GB'],
  province_id: ['5332921', '2951839'],
  placement: ['PLACEMENT_TIKTOK', 'PLACEMENT_PANGLE'],
  platform: ['ANDROID', 'IPHONE', 'PC'],
};
const METRICS = new Set([
  'spend',
  'impressions',
  'clicks',
  'ctr',
  'cpc',
  'cpm',
  'reach',
  'frequency',
  'conversion',
  ...Object.values(NAMES),
]);
const MAX_DAILY_DAYS = 30;

/** A GET's list parameters are JSON in the query string; a POST's are the body's. */
function paramsOf(ctx: RouterContext): Record<string, unknown> {
  if (ctx.method === 'POST') return (ctx.request.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(ctx.query as Record<string, string>).map(([name, value]) => {
      try {
        return [name, /^[[{]/.test(value) ? JSON.parse(value) : value];
      } catch {
        return [name, value];
      }
    }),
  );
}

/**
 * The Business API's reports: `report/integrated/get/` (BASIC and AUDIENCE, `data_level` AUCTION_…, dimensions with
 * `stat_time_day`, metrics as strings, amounts as decimals of the advertiser's currency, `page`/`page_size` with
 * `page_info`), its refusals (40002: a daily range over 30 days, a dimension or metric it lacks, reach in an audience
 * report), and report tasks (`report/task/create/`, `check/` moving from QUEUING to SUCCESS as it is checked,
 * `download/` the CSV file). Figures are `ad-figures.ts`'s, an ad group, campaign or advertiser adding up its ads.
 */
export function mountReports(router: Router, api: ReportApi, base: string, tree: () => ReportTree, restored: ReportsState | undefined) {
  const state: ReportsState = restored ?? { tasks: new Map(), nextTaskId: 1 };

  /** The ads an object of the tree holds, with the object at the report's level each belongs to. */
  const adsOf = (
    advertiserId: string,
    idField: string,
    filter: Record<string, string[]>,
  ): Array<{ ad: string; owner: string; name: string }> => {
    const ads = [...tree().ads.values()].filter((ad) => ad.advertiser_id === advertiserId);
    const kept = ads.filter((ad) => Object.entries(filter).every(([field, ids]) => ids.includes(String(ad[field as keyof TreeObject]))));
    const owner = (ad: TreeObject) => String(idField === 'advertiser_id' ? advertiserId : ad[idField as keyof TreeObject]);
    const nameOf = (ad: TreeObject) => {
      const map = idField === 'campaign_id' ? tree().campaigns : idField === 'adgroup_id' ? tree().adgroups : tree().ads;
      return String(map.get(owner(ad))?.[NAMES[idField] as keyof TreeObject] ?? '');
    };
    return kept.map((ad) => ({ ad: String(ad.ad_id), owner: owner(ad), name: nameOf(ad) }));
  };

  /** Every row of a report (dimensions and metrics, as the API writes them), or a refusal (a string). */
  const rowsOf = (
    advertiser: ReportAdvertiser,
    p: Record<string, unknown>,
    limited = true,
  ): Array<{ dimensions: Record<string, string>; metrics: Record<string, string> }> | string => {
    const idField = LEVEL_IDS[String(p.data_level)];
    if (!idField) return 'data_level: must be one of AUCTION_ADVERTISER, AUCTION_CAMPAIGN, AUCTION_ADGROUP, AUCTION_AD.';
    const dimensions = Array.isArray(p.dimensions) ? (p.dimensions as string[]) : [];
    const metrics = Array.isArray(p.metrics) ? (p.metrics as string[]) : [];
    if (!dimensions.includes(idField)) return `dimensions: must include ${idField} at ${String(p.data_level)}.`;
    const audience = dimensions.filter((d) => d !== idField && d !== 'stat_time_day');
    if (audience.some((d) => !AUDIENCE[d])) return `dimensions: ${audience.join(', ')} is not a dimension of this report.`;
    if (audience.length > 0 && p.report_type !== 'AUDIENCE') return 'report_type: audience dimensions need an AUDIENCE report.';
    if (audience.length > 1 && !audience.every((d) => d === 'age' || d === 'gender')) return 'dimensions: only age and gender combine.';
    if (audience.length > 0 && metrics.some((m) => m === 'reach' || m === 'frequency')) return 'metrics: reach is not in audience reports.';
    const unknown = metrics.find((m) => !METRICS.has(m));
    if (unknown) return `metrics: ${unknown} is not a metric.`;
    const since = String(p.start_date ?? '');
    const until = String(p.end_date ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || !/^\d{4}-\d{2}-\d{2}$/.test(until) || since > until)
      return 'start_date and end_date: a range of dates.';
    const daily = dimensions.includes('stat_time_day');
    if (limited && daily && (Date.parse(until) - Date.parse(since)) / 86_400_000 + 1 > MAX_DAILY_DAYS)
      return `The time span of stat_time_day cannot exceed ${MAX_DAILY_DAYS} days.`;
    const filter: Record<string, string[]> = {};
    for (const f of Array.isArray(p.filtering) ? (p.filtering as Array<{ field_name: string; filter_value: string }>) : []) {
      filter[f.field_name.replace(/s$/, '')] = JSON.parse(f.filter_value) as string[];
    }
    const ads = adsOf(advertiser.advertiser_id, idField, filter);
    // An advertiser without ads is its own ad: its figures are still there to read.
    const groups = new Map<string, { name: string; ads: string[] }>();
    if (ads.length === 0 && idField === 'advertiser_id')
      groups.set(advertiser.advertiser_id, { name: '', ads: [advertiser.advertiser_id] });
    for (const { ad, owner, name } of ads) groups.set(owner, { name, ads: [...(groups.get(owner)?.ads ?? []), ad] });
    const currency = advertiser.currency ?? 'USD';
    const rows = [];
    for (const period of buckets(since, until, daily ? 'day' : 'all')) {
      for (const [owner, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
        const total = addDays(group.ads.flatMap((ad) => period.days.map((day) => adDay(ad, day))));
        for (const cell of breakdownCells(audience, `${owner}|${period.start}`, AUDIENCE)) {
          rows.push({
            dimensions: { [idField]: owner, ...(daily ? { stat_time_day: `${period.start} 00:00:00` } : {}), ...cell.values },
            metrics: metricsOf(shareOf(total, cell.share), period.days.length, metrics, currency, NAMES[idField] ? group.name : null),
          });
        }
      }
    }
    return rows;
  };

  router.get(`${base}/report/integrated/get/`, (ctx) => {
    const p = paramsOf(ctx);
    const advertiser = api.advertiser(ctx, p.advertiser_id);
    if (!advertiser) return;
    const rows = rowsOf(advertiser, p);
    if (typeof rows === 'string') return api.answer(ctx, 40002, rows);
    const pageSize = Math.min(Math.max(Number(p.page_size ?? 10) || 10, 1), 1000);
    const page = Math.max(Number(p.page ?? 1) || 1, 1);
    api.answer(ctx, 0, 'OK', {
      list: rows.slice((page - 1) * pageSize, page * pageSize),
      page_info: { page, page_size: pageSize, total_number: rows.length, total_page: Math.ceil(rows.length / pageSize) },
    });
  });

  router.post(`${base}/report/task/create/`, (ctx) => {
    const p = paramsOf(ctx);
    const advertiser = api.advertiser(ctx, p.advertiser_id);
    if (!advertiser) return;
    const checked = rowsOf(advertiser, p, false);
    if (typeof checked === 'string') return api.answer(ctx, 40002, checked);
    const taskId = String(state.nextTaskId++);
    state.tasks.set(taskId, { advertiserId: advertiser.advertiser_id, params: p, checks: 0 });
    api.answer(ctx, 0, 'OK', { task_id: taskId });
  });

  /** The task of the advertiser a call names, or the refusal written. */
  const taskOf = (ctx: RouterContext): Task | null => {
    const p = paramsOf(ctx);
    if (!api.advertiser(ctx, p.advertiser_id)) return null;
    const task = state.tasks.get(String(p.task_id));
    if (!task || task.advertiserId !== String(p.advertiser_id)) {
      api.answer(ctx, 40002, 'task_id: no such task.');
      return null;
    }
    return task;
  };

  router.get(`${base}/report/task/check/`, (ctx) => {
    const task = taskOf(ctx);
    if (!task) return;
    const steps = [
      ['QUEUING', 0],
      ['PROCESSING', 60],
      ['SUCCESS', 100],
    ] as const;
    const [status, percent] = steps[Math.min(task.checks, steps.length - 1)]!;
    task.checks += 1;
    api.answer(ctx, 0, 'OK', { status, percent });
  });

  router.get(`${base}/report/task/download/`, (ctx) => {
    const task = taskOf(ctx);
    if (!task) return;
    const advertiser = api.advertiser(ctx, task.advertiserId)!;
    const rows = rowsOf(advertiser, task.params, false) as Exclude<ReturnType<typeof rowsOf>, string>;
    const columns = [...Object.keys(rows[0]?.dimensions ?? {}), ...Object.keys(rows[0]?.metrics ?? {})];
    const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
    ctx.type = 'text/csv';
    ctx.body = [
      columns.join(','),
      ...rows.map((row) => columns.map((c) => cell(row.dimensions[c] ?? row.metrics[c] ?? '')).join(',')),
    ].join('\n');
  });

  return { state: () => state };
}

/** The metrics asked for as the API writes them: every value a string, amounts in major units. */
function metricsOf(figures: AdDay, days: number, metrics: string[], currency: string, name: string | null): Record<string, string> {
  const major = (minor: number) => (minor / 10 ** currencyExponent(currency)).toFixed(currencyExponent(currency) + 2);
  const reach = reachOf(figures, days);
  const all: Record<string, string> = {
    spend: fromMinorUnits(figures.spend, currency),
    impressions: String(figures.impressions),
    clicks: String(figures.clicks),
    ctr: ((figures.clicks / figures.impressions) * 100).toFixed(2),
    cpc: major(figures.spend / figures.clicks),
    cpm: major((figures.spend / figures.impressions) * 1000),
    reach: String(reach),
    frequency: (figures.impressions / reach).toFixed(2),
    conversion: String(figures.purchases),
  };
  return Object.fromEntries(metrics.map((m) => [m, m in all ? all[m]! : (name ?? '')]));
}
