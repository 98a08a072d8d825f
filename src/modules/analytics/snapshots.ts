import type { Knex } from 'knex';
import { connectedAccountsOn } from '../accounts/api.js';
import { adapterAccount } from '../accounts/read.js';
import type { Services } from '../../services.js';
import { todayUtc } from './period.js';
import type { FollowerSnapshotRow } from './rows.js';

export const SNAPSHOT_JOB = 'analytics.follower-snapshots';

/** What the daily job is given: the day it records (today, UTC, unless said), and one account or all of them. */
export interface SnapshotJob {
  day?: string;
  accountId?: string;
}

/**
 * Records the followers of each connected account whose platform gives only a current count, once per account
 * and day: the first snapshot of a day stays (a job run twice, or by two workers, changes nothing). One account's
 * failure (a revoked token) is logged and the others are still recorded.
 */
export async function takeSnapshots(services: Services, job: SnapshotJob): Promise<void> {
  const day = job.day ?? todayUtc();
  const platforms = services.platforms
    .all()
    .filter((adapter) => adapter.insights?.followerHistory === 'snapshots')
    .map((adapter) => adapter.id);
  for (const row of await connectedAccountsOn(services.db, platforms, job.accountId)) {
    const insights = services.platforms.get(row.platform)!.insights!;
    if (!insights.scopes.account.every((scope) => row.scopes.includes(scope))) continue;
    if (await hasSnapshot(services.db, row.id, day)) continue;
    try {
      const followers = await insights.followersNow!(adapterAccount(row, services.secrets));
      if (followers === null) continue;
      await services
        .db('analyticsFollowerSnapshots')
        .insert({ accountId: row.id, day, followers })
        .onConflict(['accountId', 'day'])
        .ignore();
    } catch (error) {
      services.logger.warn({ err: error, accountId: row.id, day }, 'follower snapshot failed');
    }
  }
}

async function hasSnapshot(db: Knex, accountId: string, day: string): Promise<boolean> {
  return Boolean(await db('analyticsFollowerSnapshots').where({ accountId, day }).first('accountId'));
}

/** The account's snapshots from `since` to `until`, by day, and the day of its first snapshot ever. */
export async function snapshotsOf(db: Knex, accountId: string, since: string, until: string) {
  const rows = (await db('analyticsFollowerSnapshots')
    .where({ accountId })
    .whereBetween('day', [since, until])
    .select(db.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'followers')) as Array<Pick<FollowerSnapshotRow, 'followers'> & { day: string }>;
  const first = (await db('analyticsFollowerSnapshots').where({ accountId }).first(db.raw(`to_char(min(day), 'YYYY-MM-DD') as day`))) as
    { day: string | null } | undefined;
  return { byDay: new Map(rows.map((row) => [row.day, row.followers])), firstDay: first?.day ?? null };
}
