import type { Knex } from 'knex';
import { togetherOrAlone, whichInserted } from '../../lib/batcher.js';
import { onePer } from '../../lib/memo.js';
import { NotImplementedError } from '../../lib/errors.js';
import type { IncomingRequest, WebhookReceiver } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountById, adapterAccount, credentialedAccountsAt } from '../accounts/read.js';
import { InvalidSignatureError, WebhookVerificationFailedError } from './errors.js';
import { VerificationLookups } from './verification-lookups.js';
import { IntakeWaker } from './wake.js';

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

/** The accounts webhooks' signatures are checked against, as this process's service keeps them. */
const verificationLookups = onePer(
  (services: Services) =>
    new VerificationLookups({
      credentialsOf: async (accountId) => {
        const row = await accountById(services.db, accountId);
        return row?.credentialsCiphertext ? adapterAccount(row, services.secrets) : null;
      },
      withPlatformAccountId: async (platform, platformAccountId) => {
        return (await credentialedAccountsAt(services.db, platform, platformAccountId)).map((row) => adapterAccount(row, services.secrets));
      },
    }),
);

interface ReceivedWebhook {
  platform: string;
  dedupeKey: string;
  sourceAccountId: string | null;
  body: string;
  headers: string;
}

/**
 * Stores webhooks received at about the same time in one insert, one commit for all (each in the order received):
 * whether each was stored, or dropped as a duplicate of one stored before it, in this batch or earlier.
 */
async function insertReceived(db: Knex, webhooks: ReceivedWebhook[]): Promise<boolean[]> {
  const keyOf = (webhook: Pick<ReceivedWebhook, 'platform' | 'dedupeKey'>) => `${webhook.platform}\n${webhook.dedupeKey}`;
  const inserted = (await db('platformWebhooks')
    .insert(webhooks)
    .onConflict(['platform', 'dedupeKey'])
    .ignore()
    .returning(['platform', 'dedupeKey'])) as Array<Pick<ReceivedWebhook, 'platform' | 'dedupeKey'>>;
  return whichInserted(webhooks, inserted, keyOf);
}

const RECEIVED_BATCH = 100;
const storeReceived = onePer((db: Knex) => togetherOrAlone((webhooks: ReceivedWebhook[]) => insertReceived(db, webhooks), RECEIVED_BATCH));

/** The platform's GET handshake: its challenge echoed, or 403. */
export function answerHandshake(services: Services, platform: string, query: IncomingRequest['query']): string {
  const challenge = receiverOf(services, platform).handshake?.(query) ?? null;
  if (challenge === null) throw new WebhookVerificationFailedError();
  return challenge;
}

/**
 * Checks the platform's signature on the raw body, stores the raw event (a duplicate is dropped by its key) and
 * wakes the intake workers, so the platform gets its answer once the event is committed. A bad signature changes
 * nothing.
 */
export async function receiveWebhook(services: Services, platform: string, request: IncomingRequest): Promise<{ duplicate: boolean }> {
  const receiver = receiverOf(services, platform);
  const { kept, fresh } = verificationLookups(services);
  const source = (await receiver.verify(request, kept)) ?? (await receiver.verify(request, fresh));
  if (!source) throw new InvalidSignatureError();
  const stored = await storeReceived(services.db)({
    platform,
    dedupeKey: receiver.dedupeKey(request),
    sourceAccountId: source.accountId,
    body: request.rawBody,
    headers: JSON.stringify(keptHeaders(request.headers)),
  });
  if (stored) intakeWaker(services).wake();
  return { duplicate: !stored };
}

const intakeWaker = onePer((services: Services) => new IntakeWaker(services.db, services.logger));
