import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { hashToken, newSecretToken } from '../../lib/crypto.js';
import { EmailTakenError, InvalidCredentialsError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { OwnerRow, SessionRow } from './models.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.js';

export const SESSION_TOKEN_PREFIX = 'sgs_';

export interface OpenedSession {
  owner: OwnerRow;
  session: { id: string; token: string; expiresAt: Date };
}

export async function signUp(
  db: Db,
  input: { email: string; password: string; name?: string },
  sessionTtlSeconds: number,
): Promise<OpenedSession> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (trx) => {
      const owner = await OwnerRow.query(trx).insertAndFetch({
        id: newId('own'),
        email: input.email.trim().toLowerCase(),
        passwordHash,
        name: input.name ?? null,
      });
      return { owner, session: await openSession(trx, owner.id, sessionTtlSeconds) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
}

export async function logIn(db: Db, input: { email: string; password: string }, sessionTtlSeconds: number): Promise<OpenedSession> {
  const owner = await OwnerRow.query(db).findOne({ email: input.email.trim().toLowerCase() });
  const valid = await verifyPassword(owner?.passwordHash ?? (await decoyPasswordHash()), input.password);
  if (!owner || !valid) throw new InvalidCredentialsError();
  return { owner, session: await openSession(db, owner.id, sessionTtlSeconds) };
}

async function openSession(db: Db, ownerId: string, ttlSeconds: number): Promise<OpenedSession['session']> {
  const token = newSecretToken(SESSION_TOKEN_PREFIX);
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  const row = await SessionRow.query(db).insertAndFetch({ id: newId('sess'), ownerId, tokenHash: hashToken(token), expiresAt });
  return { id: row.id, token, expiresAt };
}

export async function logOut(db: Db, sessionId: string): Promise<void> {
  await SessionRow.query(db).patch({ revokedAt: new Date() }).where({ id: sessionId }).whereNull('revokedAt');
}

export async function currentSession(db: Db, ownerId: string, sessionId: string) {
  const [owner, session] = await Promise.all([
    OwnerRow.query(db).findById(ownerId).throwIfNotFound(),
    SessionRow.query(db).findById(sessionId).throwIfNotFound(),
  ]);
  return { owner, session };
}
