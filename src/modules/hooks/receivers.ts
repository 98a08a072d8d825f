import type { EventRecord } from '../events/emit.js';
import type { HookRow } from './models.js';

/** Whether the hook takes the event: it names it, and covers its profile (a hook for every profile also owner-level events). */
export function receives(hook: HookRow, event: EventRecord): boolean {
  return (
    hook.events.includes(event.name) &&
    (hook.profileIds === null || (event.profileId !== null && hook.profileIds.includes(event.profileId)))
  );
}

/**
 * `receives` in SQL, for the events outbox (src/modules/events/emit.ts): whether an active hook of the owner of
 * the event row `event` (owner_id, profile_id, name) takes it. One probe of the owner's hooks per event.
 */
export function receivedByActiveHook(event: string): string {
  return `EXISTS (SELECT 1 FROM hooks h WHERE h.owner_id = ${event}.owner_id AND h.active AND ${event}.name = ANY(h.events)
    AND (h.profile_ids IS NULL OR ${event}.profile_id = ANY(h.profile_ids)))`;
}
