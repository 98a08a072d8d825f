import { NotImplementedError } from '../../lib/errors.js';
import type { IncomingRequest, WebhookReceiver } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountById, adapterAccount, credentialedAccountsAt } from '../accounts/read.js';
import { InvalidSignatureError, WebhookVerificationFailedError } from './errors.js';
import { VerificationLookups } from './verification-lookups.js';

/** Woken when a platform webhook is stored: the intake workers (./worker.ts) process it at once. */
export const INTAKE_CHANNEL = 'socialgate_intake';

/**
 * The headers kept with a stored event, to tell later what sent it. Only these: the others may carry a
 * credential (a bot's secret token, an authorization), and nothing reads them once the request is verified.
 */
const KEPT_HEADERS = ['content-type', 'content-length', 'user-agent'];

function keptHeaders(headers: IncomingRequest['headers']): Record<string, unknown> {
  return Object.fromEntries(KEPT_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]));
}

function receiverOf(services: Services, platform: string): WebhookReceiver {
  const receiver = services.platforms.get(platform)?.webhooks;
  if (!receiver) throw new NotImplementedError(`incoming webhooks of ${platform}`);
  return receiver;
}

const lookups = new WeakMap<Services, VerificationLookups>();

/** The accounts webhooks' signatures are checked against, as this process's service keeps them. */
function verificationLookups(services: Services): VerificationLookups {
  let found = lookups.get(services);
  if (!found) {
    found = new VerificationLookups({
      credentialsOf: async (accountId) => {
        const row = await accountById(services.db, accountId);
        return row?.credentialsCiphertext ? adapterAccount(row, services.secrets) : null;
      },
      withPlatformAccountId: async (platform, platformAccountId) => {
        return (await credentialedAccountsAt(services.db, platform, platformAccountId)).map((row) => adapterAccount(row, services.secrets));
      },
    });
    lookups.set(services, found);
  }
  return found;
}

/** The platform's GET handshake: its challenge echoed, or 403. */
export function answerHandshake(services: Services, platform: string, query: IncomingRequest['query']): string {
  const challenge = receiverOf(services, platform).handshake?.(query) ?? null;
  if (challenge === null) throw new WebhookVerificationFailedError();
  return challenge;
}

/**
 * Checks the platform's signature on the raw body, stores the raw event (a duplicate is dropped by its key) and
 * wakes the intake workers, so the platform gets its answer at once. One statement does both (NOTIFY is sent on
 * its commit): the answer waits for one round trip to the database. A bad signature changes nothing.
 */
export async function receiveWebhook(services: Services, platform: string, request: IncomingRequest): Promise<{ duplicate: boolean }> {
  const receiver = receiverOf(services, platform);
  const { kept, fresh } = verificationLookups(services);
  const source = (await receiver.verify(request, kept)) ?? (await receiver.verify(request, fresh));
  if (!source) throw new InvalidSignatureError();
  const { rows } = (await services.db.raw(
    `WITH stored AS (
       INSERT INTO platform_webhooks (platform, dedupe_key, source_account_id, body, headers) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (platform, dedupe_key) DO NOTHING RETURNING id
     )
     SELECT id, pg_notify(?, '') FROM stored`,
    [
      platform,
      receiver.dedupeKey(request),
      source.accountId,
      request.rawBody,
      JSON.stringify(keptHeaders(request.headers)),
      INTAKE_CHANNEL,
    ],
  )) as { rows: Array<{ id: string }> };
  return { duplicate: rows.length === 0 };
}
