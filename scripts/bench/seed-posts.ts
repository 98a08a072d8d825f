/**
 * Seeds `count` posts (one target each) for an owner, straight in SQL: 10 profiles with 2 botchat accounts each,
 * a post a minute back from now, statuses in realistic shares (70 % published, 20 % scheduled, 5 % failed,
 * 4 % cancelled), spread over 9 profiles; the oldest 1 % are `partial` and of the 10th profile. Targets are
 * never due, so a running worker leaves them alone.
 *   npx tsx scripts/bench/seed-posts.ts <databaseUrl> <ownerId> [count=1000000]
 */
import { fileURLToPath } from 'node:url';
import { connect, type Db } from '../../src/db/database.js';

const PROFILES = 10;
const ACCOUNTS_PER_PROFILE = 2;
const CHUNK = 100_000;

export interface Seeded {
  profileIds: string[];
  accountIds: string[];
}

/** Post number i of the chunk, its status by i % 100, and its time: one a minute back from now. */
const SERIES = `generate_series(CAST(:from AS int), CAST(:to AS int)) AS i,
  LATERAL (SELECT now() - i * interval '1 minute' AS at,
                  CASE WHEN i > :old THEN ${PROFILES - 1} ELSE i % ${PROFILES - 1} END AS profile,
                  CASE WHEN i > :old THEN 'partial' WHEN i % 100 < 70 THEN 'published' WHEN i % 100 < 90 THEN 'scheduled'
                       WHEN i % 100 < 95 THEN 'failed' ELSE 'cancelled' END AS status) AS post`;

export async function seedPosts(db: Db, ownerId: string, count: number, progress: (done: number) => void = () => {}): Promise<Seeded> {
  const suffix = ownerId.slice(-8);
  // The service's id shape (`post_` and 26 characters of [0-9a-z]), unique to the owner.
  const postId = `'post_${suffix}' || lpad(to_hex(i), 18, '0')`;
  const profileIds = Array.from({ length: PROFILES }, (_, i) => `prof_bench${suffix}${String(i).padStart(13, '0')}`);
  const accountIds = profileIds.flatMap((_, p) =>
    Array.from({ length: ACCOUNTS_PER_PROFILE }, (__, a) => `acc_bench${suffix}${String(p * ACCOUNTS_PER_PROFILE + a).padStart(13, '0')}`),
  );
  await db('profiles').insert(profileIds.map((id, i) => ({ id, ownerId, name: `Bench profile ${i}` })));
  await db('accounts').insert(
    accountIds.map((id, i) => ({
      id,
      ownerId,
      profileId: profileIds[Math.floor(i / ACCOUNTS_PER_PROFILE)],
      platform: 'botchat',
      kind: 'bot',
      platformAccountId: `bench-${suffix}-${i}`,
      name: `Bench bot ${i}`,
      status: 'connected',
    })),
  );
  // The oldest 1 % are the only posts of the last profile (and its accounts) and the only `partial` ones:
  // filters whose matches all lie at the end of the owner's timeline.
  const old = Math.floor(count * 0.99);
  for (let from = 1; from <= count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK - 1);
    await db.transaction(async (trx) => {
      await trx.raw(
        `
        INSERT INTO posts (id, owner_id, profile_id, status, text, scheduled_at, published_at)
        SELECT ${postId}, :ownerId, (CAST(:profiles AS text[]))[profile + 1], status, 'Bench post ' || i, at,
               CASE WHEN status IN ('published', 'partial') THEN at END
          FROM ${SERIES}`,
        { ownerId, profiles: profileIds, from, to, old } as never,
      );
      await trx.raw(
        `
        INSERT INTO post_targets (post_id, account_id, position, platform, status, published_at, scheduled_at)
        SELECT ${postId}, (CAST(:accounts AS text[]))[profile * ${ACCOUNTS_PER_PROFILE} + (i / ${PROFILES}) % ${ACCOUNTS_PER_PROFILE} + 1],
               0, 'botchat', CASE status WHEN 'partial' THEN 'published' ELSE status END,
               CASE WHEN status IN ('published', 'partial') THEN at END, at
          FROM ${SERIES}`,
        { accounts: accountIds, from, to, old } as never,
      );
    });
    progress(to);
  }
  await db.raw('ANALYZE posts, post_targets');
  return { profileIds, accountIds };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [databaseUrl, ownerId, count = '1000000'] = process.argv.slice(2);
  if (!databaseUrl || !ownerId) throw new Error('usage: seed-posts.ts <databaseUrl> <ownerId> [count]');
  const db = connect(databaseUrl, 2);
  try {
    await seedPosts(db, ownerId, Number(count), (done) => process.stdout.write(`\r${done} posts`));
    process.stdout.write('\n');
  } finally {
    await db.destroy();
  }
}
