import { NotImplementedError } from '../../lib/errors.js';
import type { IncomingRequest, WebhookAccounts, WebhookReceiver } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountById, adapterAccount, credentialedAccountsAt } from '../accounts/read.js';
import { InvalidSignatureError, WebhookVerificationFailedError } from './errors.js';

export const PROCESS_JOB = 'platformWebhooks.process';
export const SWEEP_JOB = 'platformWebhooks.sweep';

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

function accountsLookup(services: Services): WebhookAccounts {
  return {
    credentialsOf: async (accountId) => {
      const row = await accountById(services.db, accountId);
      return row?.credentialsCiphertext ? adapterAccount(row, services.secrets) : null;
    },
    withPlatformAccountId: async (platform, platformAccountId) => {
      return (await credentialedAccountsAt(services.db, platform, platformAccountId)).map((row) => adapterAccount(row, services.secrets));
    },
  };
}

/** The platform's GET handshake: its challenge echoed, or 403. */
export function answerHandshake(services: Services, platform: string, query: IncomingRequest['query']): string {
  const challenge = receiverOf(services, platform).handshake?.(query) ?? null;
  if (challenge === null) throw new WebhookVerificationFailedError();
  return challenge;
}

/**
 * Checks the platform's signature on the raw body, stores the raw event (a duplicate is dropped by its key) and
 * leaves the work to a job, so the platform gets its answer at once. A bad signature changes nothing.
 */
export async function receiveWebhook(services: Services, platform: string, request: IncomingRequest): Promise<{ duplicate: boolean }> {
  const receiver = receiverOf(services, platform);
  const source = await receiver.verify(request, accountsLookup(services));
  if (!source) throw new InvalidSignatureError();
  const [stored] = (await services
    .db('platformWebhooks')
    .insert({
      platform,
      dedupeKey: receiver.dedupeKey(request),
      sourceAccountId: source.accountId,
      body: request.rawBody,
      headers: JSON.stringify(keptHeaders(request.headers)),
    })
    .onConflict(['platform', 'dedupeKey'])
    .ignore()
    .returning('id')) as Array<{ id: string }>;
  if (!stored) return { duplicate: true };
  await services.scheduler.now(PROCESS_JOB, { id: String(stored.id) });
  return { duplicate: false };
}
