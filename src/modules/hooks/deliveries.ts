import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import type { WebhookSettings } from './settings.js';
import { NotFoundError } from '../../lib/errors.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Principal } from '../auth/principal.js';
import { DELIVERIES_CHANNEL } from './dispatcher.js';
import { DeliveryAttemptRow, DeliveryRow } from './models.js';
import { presentDelivery } from './present.js';
import { findHook } from './service.js';

type Delivery = components['schemas']['HookDelivery'];

export async function presentDeliveries(db: Knex, rows: DeliveryRow[]): Promise<Map<string, Delivery>> {
  const attempts =
    rows.length === 0
      ? []
      : await DeliveryAttemptRow.query(db)
          .whereIn(
            'deliveryId',
            rows.map((r) => r.id),
          )
          .orderBy('id');
  return new Map(
    rows.map((row) => [
      row.id,
      presentDelivery(
        row,
        attempts.filter((a) => a.deliveryId === row.id),
      ),
    ]),
  );
}

export async function listHookDeliveries(
  db: Knex,
  principal: Principal,
  hookId: string,
  page: PageRequest,
  filters: { status?: string; event?: string },
): Promise<Page<Delivery>> {
  await findHook(db, principal, hookId);
  const query = DeliveryRow.query(db)
    .where({ hookId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (filters.status) query.where({ status: filters.status });
  if (filters.event) query.where({ event: filters.event });
  if (page.after) query.where('id', '<', page.after);
  const rows = await query;
  const presented = await presentDeliveries(db, rows);
  return toPage(rows, page, (row) => presented.get(row.id)!);
}

/**
 * Sends a delivery again, with the same id: a finished one is reopened for one more attempt (its own retries
 * when the hook is active); one still waiting is moved to now.
 */
export async function redeliverHookDelivery(
  db: Knex,
  principal: Principal,
  hookId: string,
  deliveryId: string,
  settings: WebhookSettings,
): Promise<Delivery> {
  return db.transaction(async (trx) => {
    const hook = await findHook(trx, principal, hookId);
    const delivery = await DeliveryRow.query(trx).findOne({ id: deliveryId, hookId }).forUpdate();
    if (!delivery) throw new NotFoundError('delivery');
    const open = delivery.status === 'pending' || delivery.status === 'retrying';
    const extra = hook.active ? settings.retryScheduleSeconds.length + 1 : 1;
    const [row] = await DeliveryRow.query(trx)
      .patch({
        status: open ? delivery.status : 'pending',
        nextAttemptAt: new Date(),
        lockedUntil: null,
        maxAttempts: open ? delivery.maxAttempts : delivery.attemptCount + extra,
        deliveredAt: open ? delivery.deliveredAt : null,
      })
      .where({ id: deliveryId })
      .returning('*');
    await trx.raw(`NOTIFY ${DELIVERIES_CHANNEL}`);
    return (await presentDeliveries(trx, [row!])).get(deliveryId)!;
  });
}
