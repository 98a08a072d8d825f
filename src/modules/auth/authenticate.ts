import type { Db } from '../../db/database.js';
import { hashToken } from '../../lib/crypto.js';
import { AuthenticationRequiredError, InvalidTokenError, TokenExpiredError, TokenRevokedError } from '../../lib/errors.js';
import { API_KEY_PREFIX } from '../keys/service.js';
import { ApiKeyRow } from '../keys/models.js';
import { SessionRow } from './models.js';
import type { Principal } from './principal.js';
import { SESSION_TOKEN_PREFIX } from './service.js';

const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves `Authorization: Bearer <token>` to a session or an API key, or throws the 401 that says why not. */
export async function authenticate(db: Db, authorization: string | undefined): Promise<Principal> {
  if (!authorization) throw new AuthenticationRequiredError();
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw new InvalidTokenError();
  const token = match[1];
  if (token.startsWith(SESSION_TOKEN_PREFIX)) return authenticateSession(db, token);
  if (token.startsWith(API_KEY_PREFIX)) return authenticateApiKey(db, token);
  throw new InvalidTokenError();
}

async function authenticateSession(db: Db, token: string): Promise<Principal> {
  const session = await SessionRow.query(db).findOne({ tokenHash: hashToken(token) });
  if (!session) throw new InvalidTokenError();
  if (session.revokedAt) throw new TokenRevokedError('session');
  if (session.expiresAt.getTime() <= Date.now()) throw new TokenExpiredError('session');
  return { kind: 'session', ownerId: session.ownerId, sessionId: session.id };
}

async function authenticateApiKey(db: Db, token: string): Promise<Principal> {
  const key = await ApiKeyRow.query(db).findOne({ secretHash: hashToken(token) });
  if (!key) throw new InvalidTokenError();
  if (key.revokedAt) throw new TokenRevokedError('API key');
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw new TokenExpiredError('API key');
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Written at most once a minute per key, so a busy key does not turn every read into a write.
    await ApiKeyRow.query(db).patch({ lastUsedAt: new Date() }).where({ id: key.id });
  }
  return { kind: 'apiKey', ownerId: key.ownerId, keyId: key.id, profileIds: key.profileIds };
}
