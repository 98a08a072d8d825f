import type { components } from '../../../generated/api.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withComments } from './access.js';
import { backfillComments } from './backfill.js';
import { presentComments } from './present.js';
import type { CommentRow } from './rows.js';

type Comment = components['schemas']['Comment'];

export interface CommentFilters {
  postId?: string | undefined;
  parentId?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/**
 * The account's comments from the store, newest first, after reading from the platform once what the store may
 * lack (backfill.ts). Placeholders (a change seen before its comment) and deleted comments are not listed.
 */
export async function listComments(
  services: Services,
  principal: Principal,
  accountId: string,
  page: PageRequest,
  filters: CommentFilters,
): Promise<Page<Comment>> {
  return withComments(services, principal, accountId, 'post', 'read', async (comments, account, row) => {
    await backfillComments(services, comments, row, account, filters.postId);
    const query = services
      .db('comments')
      .where({ accountId: row.id, deleted: false, known: true })
      .orderBy('id', 'desc')
      .limit(page.limit + 1);
    if (filters.postId) query.where({ platformPostId: filters.postId });
    if (filters.parentId) query.where({ parentId: filters.parentId });
    if (filters.since) query.where('writtenAt', '>=', new Date(filters.since));
    if (filters.until) query.where('writtenAt', '<', new Date(filters.until));
    if (page.after) query.where('id', '<', page.after);
    const rows = (await query) as CommentRow[];
    const presented = await presentComments(services.db, row.id, rows);
    return toPage(rows, page, (stored) => presented.get(stored.id)!);
  });
}
