import type Router from '@koa/router';
import { DateTime } from 'luxon';
import { dailyFigure, daysBetween, followersOn, WINDOW_DAYS, windowFigure } from '../../insights-series.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';

const PACIFIC = 'America/Los_Angeles';
type Kind = 'level' | 'gained' | 'lost' | 'flow' | 'unique';

/** Page metrics the Graph still gives (v26), with their kind and the periods it computes. */
export const PAGE_METRICS: Record<string, { kind: Kind; periods: string[] }> = {
  page_follows: { kind: 'level', periods: ['day'] },
  page_daily_follows_unique: { kind: 'gained', periods: ['day'] },
  page_daily_unfollows_unique: { kind: 'lost', periods: ['day'] },
  page_total_media_view_unique: { kind: 'unique', periods: ['day', 'week', 'days_28'] },
  page_media_view: { kind: 'flow', periods: ['day', 'week', 'days_28'] },
  page_post_engagements: { kind: 'flow', periods: ['day', 'week', 'days_28'] },
  page_actions_post_reactions_total: { kind: 'flow', periods: ['day', 'week', 'days_28'] },
  page_total_actions: { kind: 'flow', periods: ['day', 'week', 'days_28'] },
  page_views_total: { kind: 'flow', periods: ['day', 'week', 'days_28'] },
};
export const POST_METRICS = ['post_total_media_view_unique', 'post_reactions_by_type_total', 'post_clicks'];

/** Meta's own list of removed Page Insights metrics (2024-03-14, 2025-06-15, 2025-11-15, 2026-06-16): refused by name. */
const REMOVED = [
  'page_impressions',
  'page_impressions_unique',
  'page_impressions_paid',
  'page_impressions_paid_unique',
  'page_impressions_viral',
  'page_impressions_viral_unique',
  'page_impressions_nonviral',
  'page_impressions_nonviral_unique',
  'page_posts_impressions',
  'page_posts_impressions_unique',
  'page_fans',
  'page_fans_locale',
  'page_fans_city',
  'page_fans_country',
  'page_fan_adds',
  'page_fan_adds_unique',
  'page_fan_removes',
  'page_fan_removes_unique',
  'page_engaged_users',
  'page_consumptions',
  'post_impressions',
  'post_impressions_unique',
  'post_impressions_paid',
  'post_impressions_organic',
  'post_engaged_users',
  'post_video_views',
];
const MAX_RANGE_DAYS = 93;

/** Followers gained a day: the level rises by two a day, so lost is always gained minus two. */
const gained = (id: string, date: string) => 5 + (dailyFigure(id, 'follows', date) % 20);

/** The end of a Pacific day as the Graph writes it (`2026-11-20T08:00:00+0000`). */
const endTime = (date: string) => DateTime.fromISO(date, { zone: PACIFIC }).plus({ days: 1 }).toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");

/**
 * Page and post insights (`GET /{id}/insights`): the figures of `insights-series.ts`, Meta's refusals (a removed
 * or unknown metric: `(#100) … valid insights metric` for the whole call; more than 93 days; a period the metric
 * lacks; no read_insights: #200), days not yet settled left out (the Graph's data lag: today, Pacific), and a
 * count of the calls per object for tests that check a cache.
 */
export const insightsPart = defineSocialPart({ key: 'insights', mount: mountPageInsights });

function mountPageInsights(router: Router, { state, graph, feed, base }: SocialNetwork): void {
  const calls = new Map<string, number>();
  const removed = new Set(REMOVED);

  router.get(`${base}/:id/insights`, (ctx) => {
    const id = ctx.params.id!;
    const pageId = id.split('_')[0]!;
    calls.set(pageId, (calls.get(pageId) ?? 0) + 1);
    const token = graph.authenticate(ctx);
    if (!token) return;
    const page = state.pages.get(pageId);
    if (!page || !state.users.get(token.userId)!.pageIds.includes(pageId)) return graph.unknownObject(ctx, id);
    if (!state.granted(token, 'read_insights')) return graph.missingPermission(ctx, 'read_insights');
    const p = graph.params(ctx);
    const metrics = (p.metric ?? '').split(',').filter(Boolean);
    const isPost = id.includes('_');
    const known = (metric: string) => !removed.has(metric) && (isPost ? POST_METRICS.includes(metric) : metric in PAGE_METRICS);
    if (metrics.length === 0 || !metrics.every(known)) return graph.fail(ctx, 400, 100, '(#100) The value must be a valid insights metric');
    if (isPost) {
      const post = feed.posts.get(id);
      if (!post || post.deleted) return graph.unknownObject(ctx, id);
      ctx.body = {
        data: metrics.map((name) => ({
          name,
          period: 'lifetime',
          values: [
            {
              value:
                name === 'post_reactions_by_type_total'
                  ? { like: dailyFigure(id, 'like', 'lifetime'), love: dailyFigure(id, 'love', 'lifetime') % 50 }
                  : dailyFigure(id, name, 'lifetime'),
            },
          ],
          title: name,
          id: `${id}/insights/${name}/lifetime`,
        })),
      };
      return;
    }
    const period = p.period ?? 'day';
    const lacking = metrics.find((metric) => !PAGE_METRICS[metric]!.periods.includes(period));
    if (lacking) return graph.fail(ctx, 400, 100, `(#100) Invalid period '${period}' for metric ${lacking}`);
    const since = p.since ?? DateTime.now().setZone(PACIFIC).minus({ days: 2 }).toISODate()!;
    const until = p.until ?? DateTime.now().setZone(PACIFIC).toISODate()!;
    const range = DateTime.fromISO(until).diff(DateTime.fromISO(since), 'days').days;
    if (!(range > 0)) return graph.fail(ctx, 400, 100, '(#100) since must be before until');
    if (range > MAX_RANGE_DAYS)
      return graph.fail(ctx, 400, 100, `(#100) There cannot be more than ${MAX_RANGE_DAYS} days (8035200 s) between since and until`);
    // The day in progress (Pacific) has no figures yet.
    const lastSettled = DateTime.now().setZone(PACIFIC).minus({ days: 1 }).toISODate()!;
    const lastDay = DateTime.fromISO(until).minus({ days: 1 }).toISODate()!;
    const days = daysBetween(since, lastDay < lastSettled ? lastDay : lastSettled);
    const value = (metric: string, date: string): number => {
      const { kind } = PAGE_METRICS[metric]!;
      if (kind === 'level') return followersOn(pageId, date);
      if (kind === 'gained') return gained(pageId, date);
      if (kind === 'lost') return gained(pageId, date) - 2;
      return windowFigure(pageId, metric, date, WINDOW_DAYS[period]!, kind === 'unique');
    };
    ctx.body = {
      data: metrics.map((name) => ({
        name,
        period,
        values: days.map((date) => ({ value: value(name, date), end_time: endTime(date) })),
        title: name,
        id: `${pageId}/insights/${name}/${period}`,
      })),
      paging: {},
    };
  });

  /** How many insights calls the page (and its posts) received. */
  router.get('/_sandbox/social_network/insights-calls', (ctx) => {
    ctx.body = { calls: calls.get(String(ctx.query.pageId ?? '')) ?? 0 };
  });

  /** The platform removes a metric: from now on, naming it makes the whole call fail. */
  router.post('/_sandbox/social_network/remove-metric', (ctx) => {
    removed.add(String((ctx.request.body as { metric?: string }).metric ?? ''));
    ctx.body = { removed: [...removed] };
  });
}
