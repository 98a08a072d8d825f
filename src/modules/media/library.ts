import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { pageRequest, toPage } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import { listedProfiles, type Principal } from '../auth/principal.js';
import { unpublishedPostsUsing } from '../publishing/api.js';
import { MediaInUseError } from './errors.js';
import { MediaRow } from './models.js';
import { findMedia, presentMedia } from './service.js';
import type { MediaKind } from './settings.js';
import { storageFor } from './storage.js';

type MediaList = components['schemas']['MediaList'];

/**
 * `GET /media`: newest first. Ids are time-ordered, so the id is the keyset; a restricted key sees its
 * profiles' media only (none of no profile), as it may read no other.
 */
export async function mediaPage(
  services: Services,
  principal: Principal,
  query: { profileId?: string; kind?: MediaKind; from?: string; to?: string; limit?: number; cursor?: string },
): Promise<MediaList> {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw new ValidationFailedError([{ path: 'query/from', message: 'is after `to`', code: 'range' }]);
  }
  const page = pageRequest(query);
  const rows = MediaRow.query(services.db)
    .where({ ownerId: principal.ownerId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  const profiles = await listedProfiles(services.db, principal, query.profileId);
  if (profiles) rows.whereIn('profileId', profiles);
  if (query.kind) rows.where({ kind: query.kind });
  if (query.from) rows.where('createdAt', '>=', new Date(query.from));
  if (query.to) rows.where('createdAt', '<', new Date(query.to));
  if (page.after) rows.where('id', '<', page.after);
  return toPage(await rows, page, (row) => presentMedia(row, services.config.publicUrl));
}

/**
 * `DELETE /media/{id}`: the row is locked before the posts are read, and a post being created or edited with
 * the media locks it too (`lockMediaForPost`, ./read.ts), so one of them waits for the other: either the post comes first
 * and the delete is refused, or the delete commits and the post finds the media gone. The file goes after
 * the commit (a failed delete keeps it).
 */
export async function removeMedia(services: Services, principal: Principal, id: string): Promise<void> {
  const storageKey = await services.db.transaction(async (trx) => {
    const row = await findMedia(trx, principal, id, { forUpdate: true });
    const users = await unpublishedPostsUsing(trx, principal.ownerId, row.id);
    if (users.length > 0) throw new MediaInUseError(users);
    await MediaRow.query(trx).deleteById(row.id);
    return row.storageKey;
  });
  await storageFor(services.config).delete(storageKey);
}
