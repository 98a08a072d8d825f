import type { Db } from '../../db/database.js';
import { preparedRows } from '../../db/prepared.js';
import { hashToken } from '../../lib/crypto.js';
import { AuthenticationRequiredError, InvalidTokenError, TokenExpiredError, TokenRevokedError } from '../../lib/errors.js';
import { API_KEY_BY_SECRET_HASH, touchApiKey } from '../keys/api.js';
import { API_KEY_PREFIX } from '../keys/service.js';
import type { Principal } from './principal.js';
import type { CachedPrincipal, PrincipalCache } from './principal-cache.js';
import { SESSION_TOKEN_PREFIX } from './service.js';

/** An API key's `lastUsedAt` is at most this far behind its last use (README, "API keys"). */
export const LAST_USED_RESOLUTION_MS = 60_000;

interface TokenRow {
  id: string;
  owner_id: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  profile_ids?: string[] | null;
  last_used_at?: Date | null;
}

const LOOKUPS = {
  session: 'SELECT id, owner_id, expires_at, revoked_at FROM sessions WHERE token_hash = $1',
  apiKey: API_KEY_BY_SECRET_HASH,
};

/**
 * Resolves `Authorization: Bearer <token>` to a session or an API key, or throws the 401 that says why not.
 * A token seen in the last seconds is answered from the process's PrincipalCache, which every revocation
 * empties of it at once; otherwise its row is read (and cached when valid).
 */
export class Authenticator {
  constructor(
    private readonly db: Db,
    private readonly cache: PrincipalCache,
  ) {}

  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!authorization) throw new AuthenticationRequiredError();
    const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
    if (!token) throw new InvalidTokenError(schemeProblem(authorization));
    const kind = token.startsWith(SESSION_TOKEN_PREFIX) ? 'session' : token.startsWith(API_KEY_PREFIX) ? 'apiKey' : null;
    if (!kind) throw new InvalidTokenError();
    const hash = hashToken(token);
    const now = Date.now();
    const entry = this.cache.get(hash, now) ?? (await this.load(kind, hash, now));
    if (entry.expiresAt !== null && entry.expiresAt <= now) throw new TokenExpiredError(kind === 'session' ? 'session' : 'API key');
    if (entry.principal.kind === 'apiKey' && !usedRecently(entry, now)) await this.touch(entry, entry.principal.keyId, now);
    return entry.principal;
  }

  /** Reads the token's row: a valid one is cached, any other answers the 401 that says why. */
  private async load(kind: 'session' | 'apiKey', hash: string, now: number): Promise<Omit<CachedPrincipal, 'trustedUntil'>> {
    const mark = this.cache.mark();
    const row = await this.lookup(kind, hash);
    if (!row) throw new InvalidTokenError();
    if (row.revoked_at) throw new TokenRevokedError(kind === 'session' ? 'session' : 'API key');
    const principal: Principal =
      kind === 'session'
        ? { kind: 'session', ownerId: row.owner_id, sessionId: row.id }
        : { kind: 'apiKey', ownerId: row.owner_id, keyId: row.id, profileIds: row.profile_ids ?? null };
    const entry = { principal, expiresAt: row.expires_at?.getTime() ?? null, lastUsedAt: row.last_used_at?.getTime() ?? null };
    this.cache.set(hash, entry, mark, now);
    return entry;
  }

  /** The token's row, by a prepared statement: on every request whose token the cache does not hold. */
  private async lookup(kind: keyof typeof LOOKUPS, hash: string): Promise<TokenRow | undefined> {
    return (await preparedRows<TokenRow>(this.db, `auth:${kind}`, LOOKUPS[kind], [hash]))[0];
  }

  /**
   * Records the key's use; called when what this process knows of its `lastUsedAt` is older than the resolution:
   * at most once a minute per key and process, so a busy key does not turn every read into a write.
   */
  private async touch(entry: { lastUsedAt: number | null }, keyId: string, now: number): Promise<void> {
    const known = entry.lastUsedAt;
    entry.lastUsedAt = now; // claimed before the write, so concurrent requests of the key do not all write
    try {
      await touchApiKey(this.db, keyId, new Date(now));
    } catch (error) {
      entry.lastUsedAt = known;
      throw error;
    }
  }
}

/**
 * Whether what this process knows of a key's `lastUsedAt` is within the resolution, so that its use needs no
 * write: checked before calling `touch`, so the request of a busy key waits for no promise.
 */
function usedRecently(entry: { lastUsedAt: number | null }, now: number): boolean {
  return entry.lastUsedAt !== null && now - entry.lastUsedAt <= LAST_USED_RESOLUTION_MS;
}

/** Why an Authorization header is not `Bearer <token>`: another scheme, or no token after it. */
function schemeProblem(authorization: string): string {
  const scheme = authorization.trim().split(/ +/)[0] ?? '';
  return scheme.toLowerCase() === 'bearer'
    ? 'The Authorization header has no single token after Bearer; send "Bearer <token>".'
    : `The Authorization scheme is ${JSON.stringify(scheme)}; send "Bearer <token>" with a session token or an API key.`;
}
