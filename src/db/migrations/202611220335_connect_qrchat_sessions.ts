import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The linked-device session of a qrchat account: its pairing state (read by any API process), its keys,
  // and which worker process holds its socket (one at a time: a second socket on the same keys is replaced).
  await db.schema.createTable('qrchat_sessions', (t) => {
    t.text('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.text('state')
      .notNullable()
      .defaultTo('disconnected')
      .checkIn(['disconnected', 'connecting', 'qr_pending', 'code_pending', 'pairing', 'open', 'logged_out']);
    t.text('qr');
    t.timestamp('qr_expires_at', { useTz: true });
    t.text('pairing_code');
    // E.164 with +: asked for (pairing code) or paired.
    t.text('phone_number');
    // The end of the pairing window; null when no pairing is in progress.
    t.timestamp('pairing_expires_at', { useTz: true });
    // Each new pairing window is a new generation: a holder of an older one lets go.
    t.integer('generation').notNullable().defaultTo(0);
    // Sealed JSON {creds, keys}: the credentials and the Signal key store; null until paired, wiped on logout.
    t.text('auth_ciphertext');
    t.text('held_by');
    t.timestamp('lease_expires_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('qrchat_sessions');
}
