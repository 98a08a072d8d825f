import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';
import { CapabilityUnsupportedError } from '../accounts/errors.js';
import type { Principal } from '../auth/principal.js';
import { withInsights } from './access.js';
import { readFigures } from './figures.js';
import { dayRange, daysOf } from './period.js';
import { snapshotsOf } from './snapshots.js';

type AnalyticsFollowers = components['schemas']['AnalyticsFollowers'];

const count = (value: number | null | undefined) => (typeof value === 'number' ? Math.max(0, Math.round(value)) : null);

/**
 * `GET /analytics/{accountId}/followers`: the platform's own history where it has one (with gained and lost),
 * else the service's daily snapshots; a day without a snapshot (before the first one) has `followers: null`.
 */
export function followerHistory(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { from?: string; to?: string },
): Promise<AnalyticsFollowers> {
  const range = dayRange(query.from, query.to, ['from', 'to']);
  return withInsights(services, principal, accountId, 'account', async (source, row) => {
    const { insights } = source;
    const base = {
      accountId: row.id,
      platform: row.platform as AnalyticsFollowers['platform'],
      from: range.since,
      to: range.until,
      timeZone: insights.days.timeZone,
      dayBoundary: insights.days.boundary,
    };
    if (insights.followerHistory === 'none') throw new CapabilityUnsupportedError(`${row.platform} accounts have no followers.`);
    if (insights.followerHistory === 'snapshots') {
      const { byDay, firstDay } = await snapshotsOf(services.db, row.id, range.since, range.until);
      return {
        ...base,
        source: 'snapshots' as const,
        firstSnapshotOn: firstDay,
        series: daysOf(range).map((date) => ({ date, followers: byDay.get(date) ?? null, gained: null, lost: null })),
        updatedAt: new Date().toISOString(),
      };
    }
    const figures = await readFigures(source, ['followers', 'followers_gained', 'followers_lost'], 'day', range.since, range.until);
    const on = (metric: 'followers' | 'followers_gained' | 'followers_lost') =>
      new Map((figures.series.get(metric) ?? []).map((point) => [point.date, point.value]));
    const [followers, gained, lost] = [on('followers'), on('followers_gained'), on('followers_lost')];
    return {
      ...base,
      source: 'platform' as const,
      firstSnapshotOn: null,
      series: daysOf(range).map((date) => ({
        date,
        followers: count(followers.get(date)),
        gained: count(gained.get(date)),
        lost: count(lost.get(date)),
      })),
      updatedAt: figures.updatedAt.toISOString(),
    };
  });
}
