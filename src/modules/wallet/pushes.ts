import type { Knex } from 'knex';

/** Woken by every committed push owed to a device. */
export const WALLET_PUSHES_CHANNEL = 'socialgate_wallet_pushes';

/**
 * Owes a push to every device registered for these passes, in the caller's transaction (the outbox): it is sent
 * only if the change commits, and a crash after the commit loses none. A push already owed to a device for the
 * pass type covers the change; one being sent right now owes the device another.
 */
export async function queuePushes(trx: Knex, passIds: string[]): Promise<void> {
  if (passIds.length === 0) return;
  const result = await trx.raw(
    `INSERT INTO wallet_pushes (push_token, pass_type_identifier, program_id)
     SELECT DISTINCT r.push_token, p.pass_type_identifier, p.program_id
       FROM wallet_registrations r JOIN wallet_passes p ON p.id = r.pass_id
      WHERE r.pass_id = ANY(?)
     ON CONFLICT (push_token, pass_type_identifier)
     DO UPDATE SET requeued = wallet_pushes.requeued OR wallet_pushes.lease_until IS NOT NULL, due_at = least(wallet_pushes.due_at, now())`,
    [passIds],
  );
  if ((result as { rowCount: number }).rowCount > 0) await trx.raw(`NOTIFY ${WALLET_PUSHES_CHANNEL}`);
}
