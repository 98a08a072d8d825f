import type { Knex } from 'knex';
import type { EventRecord } from '../events/emit.js';
import { fanOut } from './dispatcher.js';
import { HookRow } from './models.js';
import { receives } from './receivers.js';
import type { WebhookSettings } from './settings.js';

// What other areas change of the hooks' tables.

/**
 * The hooks of a profile being deleted, in the deletion's transaction. The events the deletion emitted (`events`)
 * are fanned out first, to the hooks as they are: a hook bound to this profile and others still hears of it. Then a
 * hook bound to this profile alone is deleted (nothing could reach it any more; its deliveries go with it), and a
 * hook bound to others too loses it. Hooks of every profile are not touched.
 */
export async function releaseProfileHooks(
  trx: Knex.Transaction,
  settings: WebhookSettings,
  ownerId: string,
  profileId: string,
  events: EventRecord[],
): Promise<void> {
  const hooks = await HookRow.query(trx).where({ ownerId }).forUpdate();
  const alone = (hook: HookRow) => hook.profileIds?.length === 1 && hook.profileIds[0] === profileId;
  const kept = hooks.filter((hook) => hook.active && !alone(hook));
  for (const event of events)
    await fanOut(
      trx,
      event,
      kept.filter((hook) => receives(hook, event)),
      settings,
    );
  const deleted = hooks.filter(alone).map((hook) => hook.id);
  if (deleted.length > 0) await trx('hooks').whereIn('id', deleted).delete();
  await trx('hooks')
    .where({ ownerId })
    .whereRaw('? = ANY(profile_ids)', [profileId])
    .update({ profileIds: trx.raw('array_remove(profile_ids, ?)', [profileId]), updatedAt: trx.fn.now() });
}
