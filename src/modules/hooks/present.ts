import type { components } from '../../../generated/api.js';
import type { DeliveryAttemptRow, DeliveryRow, HookRow } from './models.js';

type Hook = components['schemas']['Hook'];
type Delivery = components['schemas']['HookDelivery'];

export function presentHook(row: HookRow): Hook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as Hook['events'],
    active: row.active,
    profileIds: row.profileIds,
    disabledReason: row.disabledReason,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentDelivery(row: DeliveryRow, attempts: DeliveryAttemptRow[]): Delivery {
  return {
    id: row.id,
    hookId: row.hookId,
    eventId: row.eventId,
    event: row.event as Delivery['event'],
    status: row.status,
    attempts: attempts.map((attempt) => ({
      at: attempt.at.toISOString(),
      responseStatus: attempt.responseStatus,
      durationMs: attempt.durationMs,
      errorClass: attempt.errorClass as Delivery['attempts'][number]['errorClass'],
      responseSnippet: attempt.responseSnippet,
    })),
    attemptCount: row.attemptCount,
    nextAttemptAt: row.status === 'pending' || row.status === 'retrying' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}
