import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import { idOf } from '../../../lib/ids.js';
import { decodeKeyset, keysetPage } from '../../../lib/pagination.js';
import { findAdAccount } from '../../accounts/read.js';
import { listedProfiles, type Principal } from '../../auth/principal.js';

export type AdDarkPost = components['schemas']['AdDarkPost'];

interface DarkPostRow {
  adAccountId: string;
  creativeId: string;
  ownerId: string;
  profileId: string;
  accountId: string;
  name: string;
  platformPostId: string | null;
  createdAt: Date;
}

function present(row: DarkPostRow): AdDarkPost {
  const { adAccountId, accountId, name, platformPostId, creativeId, createdAt } = row;
  return { adAccountId, accountId, name, platformPostId, creativeId, createdAt: createdAt.toISOString() };
}

/** Records a dark post made on the platform, once (a retry that made no new creative finds it recorded). */
export async function recordDarkPost(
  db: Knex,
  principal: Principal,
  post: Pick<DarkPostRow, 'adAccountId' | 'creativeId' | 'accountId' | 'name' | 'platformPostId'>,
): Promise<AdDarkPost> {
  const adAccount = await findAdAccount(db, principal, idOf('adacc', post.adAccountId));
  await db('adDarkPosts')
    .insert({ ...post, ownerId: adAccount.ownerId, profileId: adAccount.profileId })
    .onConflict(['adAccountId', 'creativeId'])
    .ignore();
  return present((await db('adDarkPosts').where({ adAccountId: post.adAccountId, creativeId: post.creativeId }).first()) as DarkPostRow);
}

/** The caller's dark posts, newest first, keyset-paginated on (createdAt, creativeId). */
export async function listDarkPosts(
  db: Knex,
  principal: Principal,
  query: { adAccountId?: string; limit?: number; cursor?: string },
): Promise<{ data: AdDarkPost[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  // The creative's id is the platform's (digits), as a provider's id is.
  const after = decodeKeyset(query.cursor, ['time', 'providerId']);
  const rows = db('adDarkPosts')
    .where({ ownerId: principal.ownerId })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'creativeId', order: 'desc' },
    ])
    .limit(limit + 1);
  const profiles = await listedProfiles(db, principal, undefined);
  if (profiles) rows.whereIn('profileId', profiles);
  // The ad account filtered by is one the caller may read (404, 403).
  if (query.adAccountId) rows.where({ adAccountId: (await findAdAccount(db, principal, idOf('adacc', query.adAccountId))).id });
  if (after) rows.whereRaw('(created_at, creative_id) < (?::timestamptz, ?)', after);
  const page = keysetPage((await rows) as DarkPostRow[], limit, (row) => [row.createdAt.toISOString(), row.creativeId]);
  return { data: page.rows.map(present), nextCursor: page.nextCursor };
}
