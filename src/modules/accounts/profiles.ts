import type { components } from '../../../generated/api.js';
import type { Db } from '../../db/database.js';
import { preparedRows } from '../../db/prepared.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import { assertProfileInScope, assertUnrestricted, profileScope, type Principal } from '../auth/principal.js';
import { assertWithinPlan } from '../usage/limits.js';
import type { UsageSettings } from '../usage/settings.js';
import { ProfileRow } from './models.js';

type Profile = components['schemas']['Profile'];

export function presentProfile(row: Pick<ProfileRow, 'id' | 'name' | 'description' | 'createdAt' | 'updatedAt'>): Profile {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createProfile(
  db: Db,
  usage: UsageSettings,
  principal: Principal,
  input: components['schemas']['ProfileCreate'],
): Promise<ProfileRow> {
  assertUnrestricted(principal, 'create profiles');
  return db.transaction(async (trx) => {
    await assertWithinPlan(trx, usage, principal.ownerId, 'profiles', 1);
    return ProfileRow.query(trx).insertAndFetch({
      id: newId('prof'),
      ownerId: principal.ownerId,
      name: input.name,
      description: input.description ?? null,
    });
  });
}

/**
 * A page of the owner's profiles (those of the key's scope), newest first, by a prepared statement: the list every
 * client reads first and most often. One statement per shape (scoped or not, first page or after a cursor), so
 * each keeps a plan of its own.
 */
export async function listProfiles(db: Db, principal: Principal, page: PageRequest): Promise<Page<Profile>> {
  const values: unknown[] = [principal.ownerId, page.limit + 1];
  const scope = profileScope(principal);
  // A deleted profile is gone from every list.
  let where = 'owner_id = $1 AND deleted_at IS NULL';
  if (scope) where += ` AND id = ANY($${values.push(scope)})`;
  if (page.after) where += ` AND id < $${values.push(page.after)}`;
  const rows = await preparedRows<Parameters<typeof presentProfile>[0]>(
    db,
    `profiles:list:${scope ? 'scoped' : 'all'}:${page.after ? 'after' : 'first'}`,
    `SELECT id, name, description, created_at AS "createdAt", updated_at AS "updatedAt" FROM profiles WHERE ${where} ORDER BY id DESC LIMIT $2`,
    values,
  );
  return toPage(rows, page, presentProfile);
}

/** The owner's profile, or 404 (a deleted one too); 403 when the caller's key is restricted to other profiles. */
export async function findProfile(db: Db, principal: Principal, id: string): Promise<ProfileRow> {
  const row = await ProfileRow.query(db).findOne({ id, ownerId: principal.ownerId, deletedAt: null });
  if (!row) throw new NotFoundError('profile');
  assertProfileInScope(principal, row.id);
  return row;
}

export async function updateProfile(
  db: Db,
  principal: Principal,
  id: string,
  input: components['schemas']['ProfileUpdate'],
): Promise<ProfileRow> {
  return db.transaction(async (trx) => {
    await findProfile(trx, principal, id);
    const patch: Partial<ProfileRow> = { updatedAt: new Date() };
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    const [row] = await ProfileRow.query(trx).patch(patch).where({ id }).returning('*');
    if (!row) throw new NotFoundError('profile');
    return row;
  });
}
