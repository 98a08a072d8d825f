import type { Context, Next } from 'koa';
import type { Db } from '../db/database.js';
import { sha256Hex } from '../lib/crypto.js';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../lib/errors.js';
import type { SecretBox } from '../lib/secret-box.js';
import { principalId } from '../modules/auth/principal.js';
import type { RequestState } from './state.js';

const RETENTION_HOURS = 24;
/** A `running` record older than this was left by a process that died; a retry may take it over. */
const ABANDONED_AFTER_SECONDS = 120;

interface StoredResponse {
  requestHash: string;
  state: 'running' | 'completed';
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: Buffer | null;
}

/**
 * `Idempotency-Key` on POST: the first response is stored for 24 hours and replayed for the same key and
 * body; another body is 422, a repeat while the first still runs is 409. A 5xx is not stored, so it can be retried.
 * A record belongs to the API key or session that made it: the request it fingerprints includes the caller, so
 * another principal of the owner with the same key and body is another request (422), never given the answer.
 * Answers hold secrets (a new API key, a webhook's signing secret), so they are stored sealed.
 */
export function idempotencyMiddleware(db: Db, secrets: SecretBox) {
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const key = ctx.get('Idempotency-Key');
    const principal = ctx.state.principal;
    if (ctx.method !== 'POST' || !key || !principal) return next();

    const requestHash = sha256Hex(`${principalId(principal)}\n${ctx.method} ${ctx.path}?${ctx.querystring}\n${ctx.state.rawBody ?? ''}`);
    const { rows } = await db.raw<{ rows: unknown[] }>(
      `
      INSERT INTO idempotency_keys (owner_id, key, request_hash, state, locked_at, expires_at)
      VALUES (:owner, :key, :hash, 'running', now(), now() + interval '${RETENTION_HOURS} hours')
      ON CONFLICT (owner_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, state = 'running', locked_at = now(), expires_at = EXCLUDED.expires_at,
            response_status = NULL, response_headers = NULL, response_body = NULL
        WHERE idempotency_keys.expires_at <= now()
           OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_at < now() - interval '${ABANDONED_AFTER_SECONDS} seconds'
               AND idempotency_keys.request_hash = EXCLUDED.request_hash)
      RETURNING request_hash`,
      { owner: principal.ownerId, key, hash: requestHash },
    );

    if (rows.length === 0) return replay(ctx, db, secrets, principal.ownerId, key, requestHash);

    try {
      await next();
    } catch (error) {
      await db('idempotencyKeys').where({ ownerId: principal.ownerId, key }).delete();
      throw error;
    }
    if (ctx.status >= 500) {
      await db('idempotencyKeys').where({ ownerId: principal.ownerId, key }).delete();
      return;
    }
    await db('idempotencyKeys')
      .where({ ownerId: principal.ownerId, key })
      .update({
        state: 'completed',
        response_status: ctx.status,
        response_headers: JSON.stringify(pickReplayedHeaders(ctx)),
        response_body: sealedBody(secrets, ctx.body),
      });
  };
}

async function replay(ctx: Context, db: Db, secrets: SecretBox, ownerId: string, key: string, requestHash: string): Promise<void> {
  const stored = (await db('idempotencyKeys').where({ ownerId, key }).first()) as StoredResponse | undefined;
  if (!stored) throw new IdempotencyKeyInUseError(); // Deleted by a failing first request a moment ago.
  if (stored.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
  if (stored.state === 'running') throw new IdempotencyKeyInUseError();
  ctx.status = stored.responseStatus ?? 200;
  for (const [name, value] of Object.entries(stored.responseHeaders ?? {})) ctx.set(name, value);
  ctx.set('Idempotent-Replayed', 'true');
  if (stored.responseBody) ctx.body = Buffer.from(secrets.open(stored.responseBody.toString('utf8')), 'base64');
}

function pickReplayedHeaders(ctx: Context): Record<string, string> {
  const headers: Record<string, string> = {};
  const type = ctx.response.get('Content-Type');
  if (type) headers['Content-Type'] = type;
  const location = ctx.response.get('Location');
  if (location) headers.Location = location;
  return headers;
}

/** The answer's bytes, sealed (base64 inside, since a body need not be text). */
function sealedBody(secrets: SecretBox, body: unknown): Buffer | null {
  if (body === undefined || body === null) return null;
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return Buffer.from(secrets.seal(bytes.toString('base64')));
}
