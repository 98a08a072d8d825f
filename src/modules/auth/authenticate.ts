import type { Db } from '../../db/database.js';
import { hashToken } from '../../lib/crypto.js';
import { AuthenticationRequiredError, InvalidTokenError, TokenExpiredError, TokenRevokedError } from '../../lib/errors.js';
import { API_KEY_PREFIX } from '../keys/service.js';
import { ApiKeyRow } from '../keys/models.js';
import type { Principal } from './principal.js';
import { SESSION_TOKEN_PREFIX } from './service.js';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * A fixed window per principal, kept in the `rate_limits` table (the layout rate-limiter-flexible uses:
 * `key` = `<keyPrefix>:<key or session id>`, `points`, `expire` in epoch ms) and counted in the statement that
 * authenticates, so an authenticated request costs one round trip to PostgreSQL for both.
 */
export interface CountingWindow {
  keyPrefix: string;
  points: number;
  windowMs: number;
}

/** Where the principal's window stands after this request. */
export interface WindowCount {
  /** Points used in the window, this request included; above the window's points: refused. */
  consumed: number;
  /** When the window ends (epoch ms). */
  expire: number;
}

export interface Authenticated {
  principal: Principal;
  /** The principal's window, when the caller asked for the request to be counted. */
  window: WindowCount | null;
}

/**
 * Resolves `Authorization: Bearer <token>` to a session or an API key, or throws the 401 that says why not.
 * With `counting`, a token that is valid (neither revoked nor expired) also counts one point against its
 * principal's window in the same statement; a principal over its budget is not counted further (no write)
 * until its window ends.
 */
export async function authenticate(db: Db, authorization: string | undefined, counting?: CountingWindow): Promise<Authenticated> {
  if (!authorization) throw new AuthenticationRequiredError();
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw new InvalidTokenError();
  const token = match[1];
  if (token.startsWith(SESSION_TOKEN_PREFIX)) return authenticateSession(db, token, counting);
  if (token.startsWith(API_KEY_PREFIX)) return authenticateApiKey(db, token, counting);
  throw new InvalidTokenError();
}

interface Counted {
  counted_points: number | null;
  counted_expire: string | null;
  stored_points: number | null;
  stored_expire: string | null;
}

interface SessionLookup extends Counted {
  id: string;
  owner_id: string;
  expires_at: Date;
  revoked_at: Date | null;
}

interface ApiKeyLookup extends Counted {
  id: string;
  owner_id: string;
  profile_ids: string[] | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * The lookup of a token's row by its hash, and with counting, the window's upsert on the same statement:
 * `$1` hash, `$2` rate-limit key prefix with its ':', `$3` the window's points, `$4` now (epoch ms),
 * `$5` the end of a window opened now. The upsert is rate-limiter-flexible's (a window that has ended starts
 * over at 1), except that a principal over budget is left as it is; its stored count says so.
 *
 * The statement's transaction writes nothing but that count, so it commits without waiting for its WAL to
 * reach the disk (synchronous_commit off, for this transaction only): a crash of PostgreSQL may forget the
 * last fraction of a second of counts, and each request saves a WAL flush, half of PostgreSQL's CPU per request.
 */
function lookupStatement(table: 'sessions' | 'api_keys', hashColumn: string, columns: string, counting: boolean): string {
  if (!counting) return `SELECT ${columns} FROM ${table} WHERE ${hashColumn} = $1`;
  return `
    WITH found AS (SELECT ${columns} FROM ${table} WHERE ${hashColumn} = $1),
    counted AS (
      INSERT INTO rate_limits AS r (key, points, expire)
      SELECT $2::text || found.id, 1, $5::bigint FROM found
       WHERE found.revoked_at IS NULL AND (found.expires_at IS NULL OR found.expires_at > to_timestamp($4::bigint / 1000.0))
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN r.expire <= $4::bigint THEN 1 ELSE r.points + 1 END,
        expire = CASE WHEN r.expire <= $4::bigint THEN EXCLUDED.expire ELSE r.expire END
        WHERE r.expire <= $4::bigint OR r.points <= $3::integer
      RETURNING points, expire
    )
    SELECT found.*, counted.points AS counted_points, counted.expire AS counted_expire,
           stored.points AS stored_points, stored.expire AS stored_expire,
           set_config('synchronous_commit', 'off', true) AS relaxed
      FROM found
      LEFT JOIN counted ON true
      LEFT JOIN rate_limits stored ON stored.key = $2::text || found.id`;
}

const STATEMENTS = {
  session: lookupStatement('sessions', 'token_hash', 'id, owner_id, expires_at, revoked_at', false),
  sessionCounted: lookupStatement('sessions', 'token_hash', 'id, owner_id, expires_at, revoked_at', true),
  apiKey: lookupStatement('api_keys', 'secret_hash', 'id, owner_id, profile_ids, expires_at, last_used_at, revoked_at', false),
  apiKeyCounted: lookupStatement('api_keys', 'secret_hash', 'id, owner_id, profile_ids, expires_at, last_used_at, revoked_at', true),
};

/**
 * Runs the lookup as a named (prepared) statement on a connection of the service's pool, as
 * rate-limiter-flexible does: planned once per connection, where a query builder would re-send and re-plan it.
 */
async function lookup<Row extends Counted>(db: Db, name: keyof typeof STATEMENTS, hash: string, counting: CountingWindow | undefined, now: number): Promise<Row | undefined> {
  const values: unknown[] = counting ? [hash, `${counting.keyPrefix}:`, counting.points, now, now + counting.windowMs] : [hash];
  const connection = await db.client.acquireConnection();
  try {
    const result = await connection.query({ name: `socialgate:${name}`, text: STATEMENTS[name], values });
    return result.rows[0] as Row | undefined;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

function windowOf(row: Counted, counting: CountingWindow | undefined): WindowCount | null {
  if (!counting) return null;
  if (row.counted_points !== null) return { consumed: row.counted_points, expire: Number(row.counted_expire) };
  // Not counted though valid: its window was over budget already, and stays so until it ends.
  if (row.stored_points !== null) return { consumed: row.stored_points, expire: Number(row.stored_expire) };
  throw new Error('a valid token was neither counted nor found over its budget');
}

async function authenticateSession(db: Db, token: string, counting: CountingWindow | undefined): Promise<Authenticated> {
  const now = Date.now();
  const session = await lookup<SessionLookup>(db, counting ? 'sessionCounted' : 'session', hashToken(token), counting, now);
  if (!session) throw new InvalidTokenError();
  if (session.revoked_at) throw new TokenRevokedError('session');
  if (session.expires_at.getTime() <= now) throw new TokenExpiredError('session');
  return { principal: { kind: 'session', ownerId: session.owner_id, sessionId: session.id }, window: windowOf(session, counting) };
}

async function authenticateApiKey(db: Db, token: string, counting: CountingWindow | undefined): Promise<Authenticated> {
  const now = Date.now();
  const key = await lookup<ApiKeyLookup>(db, counting ? 'apiKeyCounted' : 'apiKey', hashToken(token), counting, now);
  if (!key) throw new InvalidTokenError();
  if (key.revoked_at) throw new TokenRevokedError('API key');
  if (key.expires_at && key.expires_at.getTime() <= now) throw new TokenExpiredError('API key');
  if (!key.last_used_at || now - key.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Written at most once a minute per key, so a busy key does not turn every read into a write.
    await ApiKeyRow.query(db).patch({ lastUsedAt: new Date(now) }).where({ id: key.id });
  }
  return {
    principal: { kind: 'apiKey', ownerId: key.owner_id, keyId: key.id, profileIds: key.profile_ids },
    window: windowOf(key, counting),
  };
}
