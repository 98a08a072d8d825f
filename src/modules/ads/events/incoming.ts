import type { Knex } from 'knex';
import { sha256Hex } from '../../../lib/crypto.js';
import type { AdAccountChange, AdAccountChangeValue } from '../../../platforms/social-network/ad-account-webhooks.js';
import type { Services } from '../../../services.js';
import { adAccountsAddressedBy } from '../../accounts/incoming.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { emitEvents, type NewEvent } from '../../events/emit.js';

/** What a change is about: its object, or a recommendation's hash (the objects it names when it has none). */
function objectKeyOf(change: AdAccountChangeValue): string {
  if (change.field !== 'ad_recommendations') return change.objectId;
  return change.recommendationHash ?? `objects:${[...change.objectIds].sort().join(',')}`;
}

/** The event a change is, for one connected ad account. */
function eventOf(row: AdAccountRow, change: AdAccountChangeValue): NewEvent {
  const base = { ownerId: row.ownerId, profileId: row.profileId };
  switch (change.field) {
    case 'in_process_ad_objects':
      return {
        ...base,
        name: 'ad.status_changed',
        data: { adAccountId: row.id, objectId: change.objectId, level: change.level, status_name: change.statusName },
      };
    case 'with_issues_ad_objects':
      return {
        ...base,
        name: 'ad.issue',
        data: {
          adAccountId: row.id,
          objectId: change.objectId,
          level: change.level,
          error_code: change.errorCode,
          error_summary: change.errorSummary.slice(0, 500),
          error_message: change.errorMessage.slice(0, 4000),
        },
      };
    case 'ad_recommendations':
      return {
        ...base,
        name: 'ad.recommendation',
        data: {
          adAccountId: row.id,
          objectIds: change.objectIds.slice(0, 100),
          recommendationType: change.recommendationType,
          recommendationMessage: change.recommendationMessage.slice(0, 4000),
          recommendationStage: change.recommendationStage,
          recommendationHash: change.recommendationHash,
        },
      };
  }
}

/**
 * Records the change for the ad account; whether it is to be sent: not a duplicate (the same change of the same
 * object and field at the same platform time), and not older than a change of that object and field already
 * recorded (sending it after the newer one would report a state the object has left). Changes of one object and
 * field are recorded one transaction at a time.
 */
async function taken(trx: Knex.Transaction, row: AdAccountRow, event: AdAccountChange): Promise<boolean> {
  const key = { adAccountId: row.id, objectKey: objectKeyOf(event.change), field: event.change.field };
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`ad_object_changes\n${key.adAccountId}\n${key.objectKey}\n${key.field}`]);
  const newer = await trx('adObjectChanges').where(key).where('platformTime', '>', event.at).first('platformTime');
  const inserted = await trx('adObjectChanges')
    .insert({ ...key, platformTime: event.at, fingerprint: sha256Hex(JSON.stringify(event.change)), emitted: !newer })
    .onConflict(['adAccountId', 'objectKey', 'field', 'platformTime', 'fingerprint'])
    .ignore()
    .returning('emitted');
  return inserted.length > 0 && !newer;
}

/**
 * The ad platform's notifications about connected ad accounts' objects become `ad.status_changed`, `ad.issue` and
 * `ad.recommendation` for every owner who connected the ad account: each change once, in the order of the
 * platform's time (a batch is taken in that order; a change older than one sent before is recorded, not sent).
 */
export async function receiveAdAccountChanges(
  _services: Services,
  platform: string,
  events: AdAccountChange[],
  trx: Knex.Transaction,
): Promise<void> {
  const emitted: NewEvent[] = [];
  for (const event of [...events].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    for (const row of await adAccountsAddressedBy(trx, platform, event.platformAdAccountId)) {
      if (await taken(trx, row, event)) emitted.push(eventOf(row, event.change));
    }
  }
  await emitEvents(trx, emitted);
}
