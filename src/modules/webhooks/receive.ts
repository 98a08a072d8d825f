import { ApiError, NotImplementedError } from '../../lib/errors.js';
import type { IncomingRequest, WebhookAccounts, WebhookReceiver } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { adapterAccount } from '../accounts/accounts.js';
import { AccountRow } from '../accounts/models.js';

export const PROCESS_JOB = 'platformWebhooks.process';

function receiverOf(services: Services, platform: string): WebhookReceiver {
  const receiver = services.platforms.get(platform)?.webhooks;
  if (!receiver) throw new NotImplementedError(`incoming webhooks of ${platform}`);
  return receiver;
}

function accountsLookup(services: Services): WebhookAccounts {
  return {
    credentialsOf: async (accountId) => {
      const row = await AccountRow.query(services.db).findById(accountId);
      return row?.credentialsCiphertext ? adapterAccount(row, services.secrets) : null;
    },
    withPlatformAccountId: async (platform, platformAccountId) => {
      const rows = await AccountRow.query(services.db).where({ platform, platformAccountId }).whereNotNull('credentialsCiphertext');
      return rows.map((row) => adapterAccount(row, services.secrets));
    },
  };
}

/** The platform's GET handshake: its challenge echoed, or 403. */
export function answerHandshake(services: Services, platform: string, query: IncomingRequest['query']): string {
  const challenge = receiverOf(services, platform).handshake?.(query) ?? null;
  if (challenge === null) {
    throw new ApiError(403, 'webhook_verification_failed', 'Verification failed', 'The handshake does not match this service.');
  }
  return challenge;
}

/**
 * Checks the platform's signature on the raw body, stores the raw event (a duplicate is dropped by its key) and
 * leaves the work to a job, so the platform gets its answer at once. A bad signature changes nothing.
 */
export async function receiveWebhook(services: Services, platform: string, request: IncomingRequest): Promise<{ duplicate: boolean }> {
  const receiver = receiverOf(services, platform);
  const source = await receiver.verify(request, accountsLookup(services));
  if (!source) throw new ApiError(401, 'invalid_signature', 'Invalid signature', 'The request is not signed by the platform.');
  const [stored] = await services.db('platformWebhooks')
    .insert({ platform, dedupeKey: receiver.dedupeKey(request), sourceAccountId: source.accountId, body: request.rawBody, headers: JSON.stringify(request.headers) })
    .onConflict(['platform', 'dedupeKey']).ignore().returning('id') as Array<{ id: string }>;
  if (!stored) return { duplicate: true };
  await services.scheduler.now(PROCESS_JOB, { id: String(stored.id) });
  return { duplicate: false };
}
