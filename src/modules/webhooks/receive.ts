import type { Knex } from 'knex';
import { togetherOrAlone, whichInserted } from '../../lib/batcher.js';
import { onePer } from '../../lib/memo.js';
import { unstorableCharacters } from '../../lib/storable.js';
import { idOf } from '../../lib/ids.js';
import type { IncomingEvent, IncomingRequest, WebhookReceiver, WebhookSource } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountById, adapterAccount, credentialedAccountsAt } from '../accounts/read.js';
import { PlatformNotConfiguredError } from '../connect/errors.js';
import { InvalidSignatureError, WebhookPayloadInvalidError, WebhookVerificationFailedError } from './errors.js';
import { eventsOf, receiverOf } from './receivers.js';
import type { PlatformWebhookRow } from './rows.js';
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

/** The source's receiver; 422 `platform_not_configured` when this instance runs without it. */
function configuredReceiver(services: Services, source: string): WebhookReceiver {
  const receiver = receiverOf(services, source);
  if (receiver) return receiver;
  const needs = services.platforms.unavailable.get(source);
  throw new PlatformNotConfiguredError(`This instance receives no webhooks from ${source}${needs ? `: its operator would ${needs}` : ''}.`);
}

/**
 * The webhook's dedupe key, once it is verified and what it says is checked: 400 when it could never be stored
 * or processed (a body of a shape no parser expected, no id naming its event, a NUL character), so that nothing
 * is stored that would fail at every attempt. A lone surrogate in what a person wrote is no reason to lose the
 * message: `eventsOf` makes it U+FFFD.
 */
function storableKey(receiver: WebhookReceiver, request: IncomingRequest, source: WebhookSource): string {
  let read: { dedupeKey: string | null; events: IncomingEvent[] };
  try {
    read = { dedupeKey: receiver.dedupeKey(request), events: eventsOf(receiver, request.rawBody, source) };
  } catch {
    // Signed, yet with a member of a type the platform never sends.
    throw new WebhookPayloadInvalidError('it is not of the shape the platform sends');
  }
  const { dedupeKey, events } = read;
  if (!dedupeKey) throw new WebhookPayloadInvalidError('it does not carry the id that names its event');
  const unstorable = [
    ...unstorableCharacters('body', request.rawBody),
    ...unstorableCharacters('id', dedupeKey),
    ...unstorableCharacters('events', events),
  ][0];
  if (unstorable) throw new WebhookPayloadInvalidError(`${unstorable.path} ${unstorable.message}`);
  return dedupeKey;
}

/** The accounts webhooks' signatures are checked against, as this process's service keeps them. */
const verificationLookups = onePer(
  (services: Services) =>
    new VerificationLookups({
      credentialsOf: async (accountId) => {
        const row = await accountById(services.db, idOf('acc', accountId));
        return row?.credentialsCiphertext ? adapterAccount(row, services.secrets) : null;
      },
      withPlatformAccountId: async (platform, platformAccountId) => {
        return (await credentialedAccountsAt(services.db, platform, platformAccountId)).map((row) => adapterAccount(row, services.secrets));
      },
    }),
);

/** A webhook to store; its kept headers as JSON text (the column is jsonb). */
type ReceivedWebhook = Pick<PlatformWebhookRow, 'platform' | 'dedupeKey' | 'sourceAccountId' | 'body'> & { headers: string };

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
    .returning(['platform', 'dedupeKey'])) as Array<Pick<PlatformWebhookRow, 'platform' | 'dedupeKey'>>;
  return whichInserted(webhooks, inserted, keyOf);
}

const RECEIVED_BATCH = 100;
const storeReceived = onePer((db: Knex) => togetherOrAlone((webhooks: ReceivedWebhook[]) => insertReceived(db, webhooks), RECEIVED_BATCH));

/** The platform's GET handshake: its challenge echoed, or 403. */
export function answerHandshake(services: Services, platform: string, query: IncomingRequest['query']): string {
  const challenge = configuredReceiver(services, platform).handshake?.(query) ?? null;
  if (challenge === null) throw new WebhookVerificationFailedError();
  return challenge;
}

/**
 * Checks the source's signature on the raw body, checks that what it says can be stored, stores the raw event (a
 * duplicate is dropped by its key) and wakes the intake workers, so the source gets its answer once the event is
 * committed. Every source's webhooks take this path, platforms' and the payment provider's alike. A bad
 * signature or a malformed body changes nothing.
 */
export async function receiveWebhook(services: Services, platform: string, request: IncomingRequest): Promise<{ duplicate: boolean }> {
  const receiver = configuredReceiver(services, platform);
  const { kept, fresh } = verificationLookups(services);
  const source = (await receiver.verify(request, kept)) ?? (await receiver.verify(request, fresh));
  if (!source) throw new InvalidSignatureError();
  const stored = await storeReceived(services.db)({
    platform,
    dedupeKey: storableKey(receiver, request, source),
    sourceAccountId: source.accountId,
    body: request.rawBody,
    headers: JSON.stringify(keptHeaders(request.headers)),
  });
  if (stored) intakeWaker(services).wake();
  return { duplicate: !stored };
}

const intakeWaker = onePer((services: Services) => new IntakeWaker(services.db, services.logger));
