import type { Knex } from 'knex';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuthStore } from '../../platforms/qrchat/driver.js';
import type { SessionRow, SessionState } from './rows.js';

export const sessions = (db: Knex) => db<SessionRow>('qrchatSessions');

export async function readSession(db: Knex, accountId: string): Promise<SessionRow | undefined> {
  return sessions(db).where({ accountId }).first();
}

/** Writes the state a holder observed, only while it still holds this generation (a newer one wins). */
export async function writeSession(
  db: Knex,
  key: { accountId: string; generation: number; holder: string },
  fields: Partial<SessionRow>,
): Promise<boolean> {
  const updated = await sessions(db)
    .where({ accountId: key.accountId, generation: key.generation, heldBy: key.holder })
    .update({ ...fields, updatedAt: new Date() });
  return updated > 0;
}

/** Lets go of every session `holder` holds; a paired one is no longer open, and the next holder connects it again. */
export async function releaseSessions(db: Knex, holder: string): Promise<void> {
  await sessions(db)
    .where({ heldBy: holder })
    .update({
      heldBy: null,
      leaseExpiresAt: null,
      state: db.raw("CASE WHEN state = 'open' THEN 'connecting' ELSE state END") as unknown as SessionState,
      updatedAt: new Date(),
    });
}

/** A new pairing window: a new generation, fresh keys (a new pairing is a new linked device), nobody holding it. */
export async function startWindow(trx: Knex, accountId: string, window: { expiresAt: Date; phoneNumber: string | null }): Promise<void> {
  const fields = {
    state: 'connecting' as const,
    qr: null,
    qrExpiresAt: null,
    pairingCode: null,
    phoneNumber: window.phoneNumber,
    pairingExpiresAt: window.expiresAt,
    authCiphertext: null,
    heldBy: null,
    leaseExpiresAt: null,
    updatedAt: new Date(),
  };
  await sessions(trx)
    .insert({ accountId, generation: 1, ...fields })
    .onConflict('accountId')
    .merge({ ...fields, generation: trx.raw('qrchat_sessions.generation + 1') as unknown as number });
}

interface AuthDocument {
  creds: unknown | null;
  keys: Record<string, Record<string, unknown>>;
}

/**
 * The driver's AuthStore over one sealed JSON document in the session row. Reads are served from memory after
 * the first; writes go out in order, and only while this holder holds this generation.
 */
export class SealedAuthStore implements AuthStore {
  private document: AuthDocument | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Knex,
    private readonly secrets: SecretBox,
    private readonly key: { accountId: string; generation: number; holder: string },
  ) {}

  private async load(): Promise<AuthDocument> {
    if (!this.document) {
      const row = await sessions(this.db).where({ accountId: this.key.accountId }).first('authCiphertext');
      this.document = row?.authCiphertext ? (JSON.parse(this.secrets.open(row.authCiphertext)) as AuthDocument) : { creds: null, keys: {} };
    }
    return this.document;
  }

  private persist(): Promise<void> {
    const sealed = this.secrets.seal(JSON.stringify(this.document));
    const written = this.writes.then(async () => {
      await writeSession(this.db, this.key, { authCiphertext: sealed });
    });
    // A failed write fails its caller, not the writes queued after it.
    this.writes = written.catch(() => {});
    return written;
  }

  async readCreds(): Promise<unknown | null> {
    return (await this.load()).creds;
  }

  async writeCreds(creds: unknown): Promise<void> {
    (await this.load()).creds = creds;
    await this.persist();
  }

  async readKeys(type: string, ids: string[]): Promise<Record<string, unknown>> {
    const stored = (await this.load()).keys[type] ?? {};
    return Object.fromEntries(ids.filter((id) => id in stored).map((id) => [id, stored[id]]));
  }

  async writeKeys(data: Record<string, Record<string, unknown | null>>): Promise<void> {
    const document = await this.load();
    for (const [type, entries] of Object.entries(data)) {
      const stored = (document.keys[type] ??= {});
      for (const [id, value] of Object.entries(entries)) {
        if (value === null) delete stored[id];
        else stored[id] = value;
      }
    }
    await this.persist();
  }
}
