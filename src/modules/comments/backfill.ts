import type { Comments } from '../../platforms/capabilities/comments.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { AccountRow } from '../accounts/models.js';
import { storePlatformComment } from './store.js';

/** The posts a first list of the whole account reads: as many as the contract promised to read live before. */
const RECENT_POSTS = 25;
/** A post's comments read at most this many pages (of 100) deep: the rest arrive by webhook. */
const MAX_PAGES_PER_POST = 50;
const ACCOUNT_SCOPE = 'account';

async function backfilled(services: Services, accountId: string, scope: string): Promise<boolean> {
  return Boolean(await services.db('commentBackfills').where({ accountId, scope }).first('scope'));
}

async function readPost(services: Services, comments: Comments, row: AccountRow, account: AdapterAccount, postId: string): Promise<void> {
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES_PER_POST; pages += 1) {
    const page = await comments.list(account, postId, cursor);
    // Newest first from the platform: stored oldest first, so that comments of one second list in their order.
    for (const comment of [...page.comments].reverse()) await storePlatformComment(services.db, row, comment);
    cursor = page.next;
    if (!cursor) break;
  }
  await services.db('commentBackfills').insert({ accountId: row.id, scope: postId }).onConflict(['accountId', 'scope']).ignore();
}

/**
 * Reads from the platform, once, the comments the store may lack: those of one post the first time it is listed,
 * or those of the account's recent posts the first time the whole account is listed. Afterwards the webhooks keep
 * the store current. Two first lists at once both read; storing a comment twice changes nothing.
 */
export async function backfillComments(
  services: Services,
  comments: Comments,
  row: AccountRow,
  account: AdapterAccount,
  postId: string | undefined,
): Promise<void> {
  if (postId) {
    if (!(await backfilled(services, row.id, postId))) await readPost(services, comments, row, account, postId);
    return;
  }
  if (await backfilled(services, row.id, ACCOUNT_SCOPE)) return;
  for (const recent of await comments.recentPostIds(account, RECENT_POSTS)) {
    if (!(await backfilled(services, row.id, recent))) await readPost(services, comments, row, account, recent);
  }
  await services.db('commentBackfills').insert({ accountId: row.id, scope: ACCOUNT_SCOPE }).onConflict(['accountId', 'scope']).ignore();
}
