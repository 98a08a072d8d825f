import type { RouterContext } from '@koa/router';
import { currencyExponent, fromMinorUnits } from '../../../lib/money.js';
import { presetRange } from '../../../platforms/ad-periods.js';
import { type AdDay, addDays, adDay, breakdownCells, buckets, type Increment, reachOf, shareOf } from '../../ad-figures.js';
import type { AdObject } from '../ad-objects.js';
import { defineSocialPart } from '../part.js';
import type { AdAccount, Token } from '../state.js';

/** Breakdowns an ad account must enable before it reports by them (the out-of-cycle change of 2026-08-03). */
export const OPT_IN = ['impression_device', 'frequency_value', 'hourly_stats_aggregated_by_advertiser_time_zone'];
/** The Marketing API's own groups of breakdowns that combine. */
const GROUPS = [
  ['age', 'gender'],
  ['country'],
  ['region'],
  ['publisher_platform', 'platform_position', 'device_platform', 'impression_device'],
  ['frequency_value'],
  ['hourly_stats_aggregated_by_advertiser_time_zone'],
];
const LEVELS = ['account', 'campaign', 'adset', 'ad'];
const INCREMENTS: Record<string, Increment> = { '1': 'day', '7': 'week', monthly: 'month', all_days: 'all' };
/** Rows a synchronous read answers at most before the Graph asks for a report run instead. */
const MAX_ROWS = 20_000;
const ADS_READ = ['ads_read', 'ads_management'];

interface Run {
  id: string;
  accountId: string;
  objectId: string;
  params: Record<string, string>;
  polls: number;
}

/** What this part keeps: report runs, the breakdowns each ad account enabled, and a row limit a control lowered. */
interface Kept {
  runs: Map<string, Run>;
  enabled: Map<string, string[]>;
  maxRows: Map<string, number>;
}

/**
 * The Marketing API's insights: `GET /{act_|campaign|adset|ad}/insights` with levels, fields, `date_preset` or
 * `time_range`, `time_increment`, breakdowns (combined only within the Graph's groups; the opt-in ones refused
 * until the ad account enabled them) and attribution windows; figures of `ad-figures.ts` (an ad's day from its id,
 * every other level adding up its ads); a read of too many rows refused with "Please reduce the amount of data";
 * report runs (`POST …/insights` → `report_run_id`, `GET /{run}` moving from not started to completed as it is
 * polled, `GET /{run}/insights`). Controls: enable a breakdown for an ad account, lower its row limit.
 */
export const marketingInsightsPart = defineSocialPart<Kept>({
  key: 'marketing_insights',
  mount(router, network, restored) {
    const { state, graph, base } = network;
    const kept: Kept = restored ?? { runs: new Map(), enabled: new Map(), maxRows: new Map() };
    const tree = () => network.ads.objects;

    /** The ad account and the object an id names (an ad account is its own object), when the token's person may read them. */
    const target = (ctx: RouterContext, token: Token, id: string): { account: AdAccount; object: AdObject | null } | null => {
      const object = id.startsWith('act_') ? null : (tree().get(id) ?? null);
      const account = state.adAccounts.get(object?.accountId ?? id);
      if (!account || !state.users.get(token.userId)!.adAccountIds.includes(account.id)) {
        graph.unknownObject(ctx, id);
        return null;
      }
      if (!ADS_READ.some((p) => state.granted(token, p))) {
        graph.missingPermission(ctx, 'ads_read');
        return null;
      }
      return { account, object };
    };
    const isOurs = (id: string) => id.startsWith('act_') || tree().has(id) || kept.runs.has(id);

    /** The ads under an object (the object itself when it is an ad), or every ad of the ad account. */
    const adsUnder = (accountId: string, object: AdObject | null): AdObject[] => {
      const all = [...tree().values()].filter((o) => o.accountId === accountId);
      if (!object) return all.filter((o) => o.kind === 'ad');
      if (object.kind === 'ad') return [object];
      const children = all.filter((o) => o.parentId === object.id);
      return children.flatMap((child) => adsUnder(accountId, child));
    };
    /** The object of `level` an ad belongs to. */
    const ancestor = (ad: AdObject, level: string): AdObject | null => {
      let at: AdObject | undefined = ad;
      while (at && at.kind !== level) at = at.parentId ? tree().get(at.parentId) : undefined;
      return at ?? null;
    };

    /** Every row of a query, or the Graph's refusal of it (written already: null). */
    const rowsOf = (ctx: RouterContext, account: AdAccount, object: AdObject | null, p: Record<string, string>, limited: boolean) => {
      const objectLevel = object?.kind ?? 'account';
      const level = p.level ?? objectLevel;
      if (!LEVELS.includes(level) || LEVELS.indexOf(level) < LEVELS.indexOf(objectLevel))
        return graph.fail(
          ctx,
          400,
          100,
          `(#100) level must be one of account, campaign, adset, ad, not above the object's (${objectLevel})`,
        );
      const breakdowns = (p.breakdowns ?? '').split(',').filter(Boolean);
      if (breakdowns.length > 1 && !GROUPS.some((group) => breakdowns.every((b) => group.includes(b))))
        return graph.fail(ctx, 400, 100, `(#100) Current combination of data breakdown columns (${breakdowns.join(', ')}) is invalid`);
      const locked = breakdowns.find((b) => OPT_IN.includes(b) && !kept.enabled.get(account.id)?.includes(b));
      if (locked)
        return graph.fail(
          ctx,
          400,
          100,
          `(#100) The breakdown ${locked} must be enabled for this ad account before it can be requested (out-of-cycle change 2026-08-03)`,
          { subcode: 2446392 },
        );
      const range = p.time_range
        ? (JSON.parse(p.time_range) as { since: string; until: string })
        : presetRange(p.date_preset ?? 'last_30d', account.timezone);
      if (!range) return graph.fail(ctx, 400, 100, `(#100) date_preset must be one of the Graph's presets`);
      const increment = INCREMENTS[p.time_increment ?? 'all_days'] ?? 'all';
      const fields = (p.fields ?? 'impressions,spend').split(',');
      const windows = p.action_attribution_windows ? (JSON.parse(p.action_attribution_windows) as string[]) : [];
      // The rows' objects, each with the ads whose figures it adds up; with no ads, the object itself is its own "ad".
      const ads = adsUnder(account.id, object);
      const groups = new Map<string, { id: string; name: unknown; ads: string[] }>();
      if (level === 'account' || ads.length === 0) {
        const id = level === 'account' ? account.id : object!.id;
        groups.set(id, {
          id,
          name: level === 'account' ? account.name : object!.fields.name,
          ads: ads.length ? ads.map((a) => a.id) : [id],
        });
      } else {
        for (const ad of ads) {
          const owner = ancestor(ad, level)!;
          const group = groups.get(owner.id) ?? { id: owner.id, name: owner.fields.name, ads: [] };
          group.ads.push(ad.id);
          groups.set(owner.id, group);
        }
      }
      const cells = breakdowns.length > 0 ? breakdowns : [];
      const periods = buckets(range.since, range.until, increment);
      const expected = periods.length * groups.size * Math.max(1, breakdownCells(cells, '').length);
      if (limited && expected > (kept.maxRows.get(account.id) ?? MAX_ROWS))
        return graph.fail(ctx, 400, 100, "Please reduce the amount of data you're asking for, then retry your request", {
          subcode: 1487534,
        });
      const rows: Array<Record<string, unknown>> = [];
      for (const period of periods) {
        for (const group of [...groups.values()].sort((a, b) => a.id.localeCompare(b.id))) {
          const total = addDays(group.ads.flatMap((ad) => period.days.map((day) => adDay(ad, day))));
          for (const cell of breakdownCells(cells, `${group.id}|${period.start}`)) {
            rows.push({
              ...(level === 'account'
                ? { account_id: account.id.slice(4), account_name: account.name }
                : { [`${level}_id`]: group.id, [`${level}_name`]: group.name }),
              ...metrics(shareOf(total, cell.share), period.days.length, fields, windows, account.currency, cells.includes(OPT_IN[2]!)),
              ...cell.values,
              date_start: period.start,
              date_stop: period.stop,
            });
          }
        }
      }
      return rows;
    };

    router.get(`${base}/:id/insights`, (ctx, next) => {
      const id = ctx.params.id!;
      if (!isOurs(id)) return next();
      const token = graph.userToken(ctx);
      if (!token) return;
      const run = kept.runs.get(id);
      if (run) {
        const found = target(ctx, token, run.accountId);
        if (!found) return;
        const rows = rowsOf(ctx, found.account, tree().get(run.objectId) ?? null, run.params, false);
        if (rows) ctx.body = graph.list(ctx, rows, `${ctx.origin}${ctx.path}`);
        return;
      }
      const found = target(ctx, token, id);
      if (!found) return;
      const rows = rowsOf(ctx, found.account, found.object, graph.params(ctx), true);
      if (rows) ctx.body = graph.list(ctx, rows, `${ctx.origin}${ctx.path}`);
    });

    /** A report run: the query is checked now (as the Graph does), its rows computed when read. */
    router.post(`${base}/:id/insights`, (ctx, next) => {
      const id = ctx.params.id!;
      if (!isOurs(id)) return next();
      const token = graph.userToken(ctx);
      if (!token) return;
      const found = target(ctx, token, id);
      if (!found) return;
      const { access_token: _, ...params } = graph.params(ctx);
      if (!rowsOf(ctx, found.account, found.object, params, false)) return;
      const run: Run = { id: state.newId(), accountId: found.account.id, objectId: id, params, polls: 0 };
      kept.runs.set(run.id, run);
      ctx.body = { report_run_id: run.id };
    });

    /** A run's progress: not started, then half done, then completed, one step each time it is read. */
    router.get(`${base}/:id`, (ctx, next) => {
      const run = kept.runs.get(ctx.params.id!);
      if (!run) return next();
      const token = graph.userToken(ctx);
      if (!token || !target(ctx, token, run.accountId)) return;
      const steps = [
        ['Job Not Started', 0],
        ['Job Running', 50],
        ['Job Completed', 100],
      ] as const;
      const [status, percent] = steps[Math.min(run.polls, steps.length - 1)]!;
      run.polls += 1;
      ctx.body = graph.pick(
        { id: run.id, account_id: run.accountId.slice(4), async_status: status, async_percent_completion: percent },
        graph.params(ctx).fields,
        'id,async_status,async_percent_completion',
      );
    });

    /** The ad account enables a breakdown that needs it (in its ads manager). */
    router.post('/_sandbox/social_network/ad-accounts/:id/breakdowns', (ctx) => {
      const breakdown = String((ctx.request.body as { breakdown?: string }).breakdown ?? '');
      kept.enabled.set(ctx.params.id!, [...(kept.enabled.get(ctx.params.id!) ?? []), breakdown]);
      ctx.body = { enabled: kept.enabled.get(ctx.params.id!) };
    });
    /** A lower limit of the rows a synchronous read of the ad account answers, to see a report run without a huge query. */
    router.post('/_sandbox/social_network/ad-accounts/:id/insights-limit', (ctx) => {
      kept.maxRows.set(ctx.params.id!, Number((ctx.request.body as { maxRows?: number }).maxRows ?? MAX_ROWS));
      ctx.body = { maxRows: kept.maxRows.get(ctx.params.id!) };
    });
    return { state: () => kept };
  },
});

/** A row's metrics as the Graph writes them: counts and money as decimal strings (money in major units), ratios as numbers. */
function metrics(figures: AdDay, days: number, fields: string[], windows: string[], currency: string, hourly: boolean) {
  const money = (minor: number) => fromMinorUnits(Math.round(minor), currency);
  const major = (minor: number) => (minor / 10 ** currencyExponent(currency)).toFixed(6);
  const reach = reachOf(figures, days);
  const action = (type: string, value: number) => ({
    action_type: type,
    value: String(value),
    ...Object.fromEntries(windows.map((w, i) => [w, String(i === 0 ? value - Math.floor(value / 10) : Math.floor(value / 10))])),
  });
  const all: Record<string, unknown> = {
    impressions: String(figures.impressions),
    clicks: String(figures.clicks),
    spend: money(figures.spend),
    ctr: figures.impressions ? ((figures.clicks / figures.impressions) * 100).toFixed(6) : '0',
    cpc: figures.clicks ? major(figures.spend / figures.clicks) : undefined,
    cpm: figures.impressions ? major((figures.spend / figures.impressions) * 1000) : undefined,
    // Distinct people are not counted by hour of the day: the Graph leaves them out.
    ...(hourly ? {} : { reach: String(reach), frequency: reach ? (figures.impressions / reach).toFixed(6) : '0' }),
    actions: [action('link_click', figures.linkClicks), action('post_engagement', figures.engagements)],
    conversions: [action('offsite_conversion.fb_pixel_purchase', figures.purchases)],
  };
  return Object.fromEntries(fields.filter((field) => all[field] !== undefined).map((field) => [field, all[field]]));
}
