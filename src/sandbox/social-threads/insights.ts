import type Router from '@koa/router';
import { DateTime } from 'luxon';
import { dailyFigure, daysBetween, followersOn, sandboxToday } from '../insights-series.js';
import type { ThreadsSandboxAuth } from './posting.js';

const TOTAL_METRICS = ['likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count'];
const MEDIA_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
/** The API has no insights from before this day (1712991600, 2024-04-13). */
const FIRST_DAY = '2024-04-13';

/**
 * `threads_insights` and media insights: `views` day by day (UTC), the other metrics one `total_value` over
 * since..until, each a sum of the figures of `insights-series.ts`; `followers_count` is the person's followers
 * now (settable by a test). Refusals: an unknown metric (#100), since before 2024-04-13, no insights scope (#10).
 */
export function mountThreadsInsights(router: Router, auth: ThreadsSandboxAuth): void {
  const followers = new Map<string, number>();

  router.get('/social_threads/graph/:version/:userId/threads_insights', (ctx) => {
    const token = auth.authenticate(ctx);
    if (!token) return;
    const userId = ctx.params.userId!;
    if (userId !== token.userId && userId !== 'me')
      return auth.fail(ctx, 100, `Unsupported get request. Object with ID '${userId}' does not exist`, 33);
    if (!token.scopes.includes('threads_manage_insights'))
      return auth.fail(ctx, 10, '(#10) Application does not have permission for this action', undefined, 403);
    const p = auth.params(ctx);
    const metrics = (p.metric ?? '').split(',').filter(Boolean);
    if (metrics.length === 0 || !metrics.every((m) => m === 'views' || TOTAL_METRICS.includes(m)))
      return auth.fail(ctx, 100, '(#100) The value must be a valid insights metric');
    const since = DateTime.fromSeconds(Number(p.since ?? 0), { zone: 'utc' }).toISODate()!;
    const until = DateTime.fromSeconds(Number(p.until ?? 0), { zone: 'utc' })
      .minus({ days: 1 })
      .toISODate()!;
    if (since < FIRST_DAY) return auth.fail(ctx, 100, '(#100) since cannot be earlier than 1712991600');
    const days = daysBetween(since, until < sandboxToday() ? until : sandboxToday());
    ctx.body = {
      data: metrics.map((name) =>
        name === 'views'
          ? {
              name,
              period: 'day',
              values: days.map((date) => ({
                value: dailyFigure(token.userId, name, date),
                end_time: `${DateTime.fromISO(date, { zone: 'utc' }).plus({ days: 1 }).toISODate()}T08:00:00+0000`,
              })),
              id: `${token.userId}/insights/${name}/day`,
            }
          : {
              name,
              period: 'day',
              total_value: {
                value:
                  name === 'followers_count'
                    ? (followers.get(token.userId) ?? followersOn(token.userId, sandboxToday()))
                    : days.reduce((sum, date) => sum + dailyFigure(token.userId, name, date), 0),
              },
              id: `${token.userId}/insights/${name}/day`,
            },
      ),
    };
  });

  router.get('/social_threads/graph/:version/:mediaId/insights', (ctx) => {
    const token = auth.authenticate(ctx);
    if (!token) return;
    const metrics = (auth.params(ctx).metric ?? '').split(',').filter(Boolean);
    if (metrics.length === 0 || !metrics.every((m) => MEDIA_METRICS.includes(m)))
      return auth.fail(ctx, 100, '(#100) The value must be a valid insights metric');
    const mediaId = ctx.params.mediaId!;
    ctx.body = {
      data: metrics.map((name) => ({
        name,
        period: 'lifetime',
        values: [{ value: dailyFigure(mediaId, name, 'lifetime') }],
        id: `${mediaId}/insights/${name}/lifetime`,
      })),
    };
  });

  /** The person's followers now, as `followers_count` reports them. */
  router.post('/_sandbox/social_threads/followers', (ctx) => {
    const body = ctx.request.body as { userId: string; followers: number };
    followers.set(body.userId, body.followers);
    ctx.body = { followers: body.followers };
  });
}
