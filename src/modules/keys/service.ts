import type { components } from '../../../generated/api.js';
import type { Db } from '../../db/database.js';
import { hashToken, newSecretToken } from '../../lib/crypto.js';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import { UnknownProfileError } from '../accounts/errors.js';
import { ownedProfileIds } from '../accounts/api.js';
import { ApiKeyRow } from './models.js';

export const API_KEY_PREFIX = 'sgk_';
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

type ApiKey = components['schemas']['ApiKey'];

export function presentApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: { profiles: row.profileIds },
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function futureDate(value: string | null | undefined, path: string): Date | null {
  if (value === undefined || value === null) return null;
  const date = new Date(value);
  if (date.getTime() <= Date.now()) {
    throw new ValidationFailedError([{ path, message: 'must be in the future', code: 'future' }]);
  }
  return date;
}

export async function createApiKey(
  db: Db,
  ownerId: string,
  input: components['schemas']['ApiKeyCreate'],
): Promise<{ row: ApiKeyRow; key: string }> {
  const expiresAt = futureDate(input.expiresAt, 'body/expiresAt');
  const profileIds = input.scope?.profiles ?? null;
  return db.transaction(async (trx) => {
    if (profileIds) {
      const owned = await ownedProfileIds(trx, ownerId, profileIds);
      const missing = profileIds.filter((id) => !owned.has(id));
      if (missing.length > 0)
        throw new UnknownProfileError(missing.map((id) => ({ id, path: `body/scope/profiles/${profileIds.indexOf(id)}` })));
    }
    const key = newSecretToken(API_KEY_PREFIX);
    const row = await ApiKeyRow.query(trx).insertAndFetch({
      id: newId('key'),
      ownerId,
      name: input.name,
      prefix: key.slice(0, VISIBLE_PREFIX_LENGTH),
      secretHash: hashToken(key),
      profileIds,
      expiresAt,
    });
    return { row, key };
  });
}

export async function listApiKeys(db: Db, ownerId: string, page: PageRequest): Promise<Page<ApiKey>> {
  const query = ApiKeyRow.query(db)
    .where({ ownerId })
    .whereNull('revokedAt')
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.after) query.where('id', '<', page.after);
  return toPage(await query, page, presentApiKey);
}

export async function updateApiKey(db: Db, ownerId: string, id: string, input: components['schemas']['ApiKeyUpdate']): Promise<ApiKeyRow> {
  const patch: Partial<ApiKeyRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.expiresAt !== undefined) patch.expiresAt = futureDate(input.expiresAt, 'body/expiresAt');
  const [row] = await ApiKeyRow.query(db).patch(patch).where({ id, ownerId }).whereNull('revokedAt').returning('*');
  if (!row) throw new NotFoundError('API key');
  return row;
}

export async function revokeApiKey(db: Db, ownerId: string, id: string): Promise<void> {
  const count = await ApiKeyRow.query(db).patch({ revokedAt: new Date() }).where({ id, ownerId }).whereNull('revokedAt');
  if (count === 0) throw new NotFoundError('API key');
}
