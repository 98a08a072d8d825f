import type { IncomingEvent } from '../capabilities/webhooks.js';
import type { GraphObjectParser } from '../meta/graph-webhook.js';

/** A `permissions` entry: [U] its id is the person's app-scoped id; a change's value names the verb and targets. */
interface PermissionsEntry {
  id?: string;
  changes?: Array<{ field?: string; value?: { verb?: string; target_ids?: Array<string | number> } }>;
}

/**
 * A permission the person took back. Any revoked permission leaves the grant short of what the service asked
 * for, so the affected accounts need a reconnection: those of `target_ids` where the permission is granular,
 * else all of the person's.
 */
function revocations(entries: PermissionsEntry[]): IncomingEvent[] {
  const events: IncomingEvent[] = [];
  for (const entry of entries) {
    if (!entry.id) continue;
    for (const change of entry.changes ?? []) {
      if (change.value?.verb !== 'revoked') continue;
      const targets = change.value.target_ids?.map(String) ?? [];
      const revoked = { kind: 'permission_revoked', accountId: null, platformUserId: entry.id, reason: 'permission_missing' } as const;
      if (targets.length === 0) events.push({ ...revoked, platformAccountId: null });
      for (const target of targets) events.push({ ...revoked, platformAccountId: target });
    }
  }
  return events;
}

/** The app's `permissions` object: a person revoked a permission they had granted. */
export const permissionChanges: GraphObjectParser = {
  object: 'permissions',
  parse: (notification) => revocations((notification.entry ?? []) as PermissionsEntry[]),
};
