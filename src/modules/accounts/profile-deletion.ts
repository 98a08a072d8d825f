import { NotFoundError } from '../../lib/errors.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import type { EventRecord } from '../events/emit.js';
import { releaseProfileHooks } from '../hooks/api.js';
import { keysRestrictedTo, releaseProfileKeys } from '../keys/api.js';
import { releaseProfilePosts } from '../publishing/api.js';
import { markDisconnected } from './accounts.js';
import { CONNECTION_MODELS, ProfileRow } from './models.js';
import { oweRevocation } from './revocations.js';

/**
 * `DELETE /profiles/{id}`, all or nothing in one transaction: its scheduled posts cancelled and its queue slots
 * deleted (409 while one of its posts is being published), its accounts and ad accounts disconnected
 * (`account.disconnected` each, as DELETE /accounts/{id}), its hooks and restricted keys released, the profile
 * marked deleted. What the platforms must undo is owed in the same transaction (the outbox) and done after the
 * commit by RevocationWork. A deleted profile answers 204 again and changes nothing.
 */
export async function deleteProfile(services: Services, principal: Principal, id: string): Promise<void> {
  const { ownerId } = principal;
  const remove = () =>
    services.db.transaction(async (trx) => {
      const profile = await ProfileRow.query(trx).findOne({ id, ownerId }).forUpdate();
      if (!profile) throw new NotFoundError('profile');
      assertProfileInScope(principal, id);
      if (profile.deletedAt) return;
      await releaseProfilePosts(trx, id);
      const events: EventRecord[] = [];
      for (const model of CONNECTION_MODELS) {
        const connections = await model.query(trx).where({ profileId: id }).whereNot({ status: 'disconnected' }).orderBy('id').forUpdate();
        for (const connection of connections) {
          await oweRevocation(trx, services.platforms, connection);
          events.push(await markDisconnected(trx, connection));
        }
      }
      await releaseProfileHooks(trx, services.config.webhooks, ownerId, id, events);
      await releaseProfileKeys(trx, ownerId, id);
      await ProfileRow.query(trx).patch({ deletedAt: new Date(), updatedAt: new Date() }).where({ id });
    });
  // The keys it changes are dropped by every process before the caller is answered (the caller's own among them).
  const keys = await keysRestrictedTo(services.db, ownerId, id);
  await keys.reduce<() => Promise<unknown>>((inner, keyId) => () => services.principals.change(keyId, inner), remove)();
}
