import type { Knex } from 'knex';
import type { Platforms } from '../../platforms/registry.js';
import { AccountAlreadyConnectedError, AccountConnectedElsewhereError } from './errors.js';
import { AccountRow } from './models.js';

/**
 * Refuses to connect a platform identity that someone else holds (any status but `disconnected`): the owner's
 * account of it in another profile (409 `account_already_connected`) or, on a platform whose identities are
 * exclusive, another owner's account of it (409 `account_connected_elsewhere`). In a transaction it first takes
 * a lock on the identity until the transaction ends, so two owners connecting it at once cannot both pass: the
 * second waits, then sees the first's account. Connecting calls it before touching the platform side too, so a
 * refused connection never moves the identity's webhook away from its holder.
 */
export async function assertIdentityFree(
  db: Knex,
  platforms: Platforms,
  input: { ownerId: string; profileId: string; platform: string; platformAccountId: string },
): Promise<void> {
  const exclusive = platforms.get(input.platform)?.exclusiveIdentity === true;
  if (exclusive && db.isTransaction)
    await db.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`identity:${input.platform}:${input.platformAccountId}`]);
  const query = AccountRow.query(db)
    .where({ platform: input.platform, platformAccountId: input.platformAccountId })
    .whereNot({ status: 'disconnected' })
    .select('ownerId', 'profileId');
  if (!exclusive) query.where({ ownerId: input.ownerId });
  const holders = await query;
  if (holders.some((holder) => holder.ownerId !== input.ownerId)) {
    throw new AccountConnectedElsewhereError(
      `This ${input.platform} account is connected by another owner of this service, and the platform sends its events to one place only. It can be connected here once it is disconnected there.`,
    );
  }
  const elsewhere = holders.find((holder) => holder.profileId !== input.profileId);
  if (elsewhere) {
    throw new AccountAlreadyConnectedError(
      `This ${input.platform} account is connected to another profile (${elsewhere.profileId}); disconnect it there first.`,
    );
  }
}
