import type { Knex } from 'knex';
import { lockMediaForPost } from '../media/read.js';
import { PostValidationError } from './errors.js';

/**
 * In the transaction that saves a post: locks its media until the post commits, so that a delete of one of them
 * waits and is then refused (`DELETE /media/{id}` answers 409 `media_in_use`); one deleted since the post was
 * checked is refused as unknown, as the check would have.
 */
export async function assertMediaKept(trx: Knex.Transaction, mediaIds: string[]): Promise<void> {
  const kept = await lockMediaForPost(trx, mediaIds);
  const gone = mediaIds.flatMap((id, index) => (kept.has(id) ? [] : [{ id, index }]));
  if (gone.length === 0) return;
  throw new PostValidationError(
    gone.map(({ id, index }) => ({
      path: `body/mediaIds/${index}`,
      code: 'media_not_found',
      message: `No media ${id} (it was deleted while the post was saved).`,
      accountId: null,
      platform: null,
      limit: null,
    })),
  );
}
