import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import type { FieldError } from '../../../lib/errors.js';
import type { AdPixels, ServerEvent, ServerEventRules } from '../../../platforms/capabilities/ad-pixels.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import type { HashingPlatform } from '../people/hashing.js';
import { withAdAccount } from '../access.js';
import { pixelRefusals } from './access.js';
import { AdRequestRefusedError } from './errors.js';
import { LeftOut, platformUser } from './user-data.js';

type Send = components['schemas']['AdPixelEventsSend'];
type Result = components['schemas']['AdPixelEventsResult'];
type PixelEvent = Send['events'][number];

/** How far ahead of our clock an event may be: the platforms refuse events from the future, and clocks differ. */
const CLOCK_SLACK_MS = 60_000;
const MESSAGES_MAX = 100;

/** What a platform would refuse of one event, checked before anything is sent. */
function checkEvent(event: PixelEvent, index: number, rules: ServerEventRules, platform: string, errors: FieldError[]): void {
  const at = (member: string, message: string) =>
    errors.push({ path: `body/events/${index}/${member}`, message, code: 'ad_platform_rejected' });
  const age = Date.now() - Date.parse(event.eventTime);
  if (age > rules.maxAgeSeconds * 1000) at('eventTime', `older than ${rules.maxAgeSeconds / 86_400} days: ${platform} takes no such event`);
  if (age < -CLOCK_SLACK_MS) at('eventTime', 'in the future');
  if (!rules.actionSources.includes(event.actionSource))
    at('actionSource', `${platform} pixels take ${rules.actionSources.join(', ')} events only`);
  if (event.actionSource === 'website') {
    if (!event.eventSourceUrl) at('eventSourceUrl', 'required for a website event');
    if (!event.userData.clientUserAgent) at('userData/clientUserAgent', 'required for a website event');
  }
}

/**
 * The events of this request sent to the pixel before (the same name and `eventId`), claimed for this request in
 * `trx`: a concurrent request with the same events waits for this one's outcome, and a failed send releases them
 * with the rollback. Test events are never claimed (they do not count, and may be sent again for real).
 */
async function alreadySent(trx: Knex.Transaction, adAccountId: string, pixelId: string, events: ServerEvent[]): Promise<Set<number>> {
  const keyed = events.flatMap((event, index) => (event.eventId === undefined ? [] : [{ index, event }]));
  if (keyed.length === 0) return new Set();
  const claimed = await trx
    .insert(keyed.map(({ event }) => ({ adAccountId, pixelId, eventName: event.eventName, eventId: event.eventId })))
    .into('adPixelEvents')
    .onConflict(['adAccountId', 'pixelId', 'eventName', 'eventId'])
    .ignore()
    .returning(['eventName', 'eventId']);
  const fresh = new Set(claimed.map((row: { eventName: string; eventId: string }) => `${row.eventName}\n${row.eventId}`));
  const sent = new Set<number>();
  for (const { index, event } of keyed) {
    const key = `${event.eventName}\n${event.eventId}`;
    // Each key is claimed once: a second event of the request with it is a repeat like one sent before.
    if (!fresh.delete(key)) sent.add(index);
  }
  return sent;
}

async function sendBatches(pixels: AdPixels, account: Parameters<AdPixels['sendEvents']>[0], body: Send, events: ServerEvent[]) {
  const receipt = { eventsReceived: 0, messages: [] as string[], traceId: null as string | null };
  for (let from = 0; from < events.length; from += pixels.eventRules.batchLimit) {
    const sent = await pixels.sendEvents(
      account,
      body.pixelId,
      events.slice(from, from + pixels.eventRules.batchLimit),
      body.testEventCode,
    );
    receipt.eventsReceived += sent.eventsReceived;
    receipt.messages.push(...sent.messages);
    receipt.traceId ??= sent.traceId;
  }
  return receipt;
}

/**
 * `POST /ads/pixel-events`: every event checked as the platform would (its age, its source's requirements, the
 * hashes), people's data normalised and hashed by the platform's rules, events sent before left out, the rest sent
 * in the platform's batches. The answer is what the platform received and said, and what the service left out.
 */
export function sendPixelEvents(services: Services, principal: Principal, body: Send): Promise<Result> {
  return withAdAccount('adPixels', services, principal, body.adAccountId, { handle: pixelRefusals() }, async (pixels, account, row) => {
    const platform = row.platform as HashingPlatform;
    const errors: FieldError[] = [];
    const leftOut = new LeftOut();
    const events = body.events.map((event, index): ServerEvent => {
      checkEvent(event, index, pixels.eventRules, platform, errors);
      return {
        eventName: event.eventName,
        eventTime: event.eventTime,
        actionSource: event.actionSource,
        eventSourceUrl: event.eventSourceUrl,
        eventId: event.eventId,
        optOut: event.optOut ?? false,
        user: platformUser(platform, event.userData, body.hashed ?? true, { event: index, errors, leftOut }),
        custom: event.customData,
      };
    });
    if (errors.length > 0)
      throw new AdRequestRefusedError(`${errors.length} of the events would be refused by ${platform}; nothing was sent.`, errors);
    return services.db.transaction(async (trx) => {
      const repeats = body.testEventCode ? new Set<number>() : await alreadySent(trx, row.id, body.pixelId, events);
      const fresh = events.filter((_, index) => !repeats.has(index));
      const receipt =
        fresh.length > 0 ? await sendBatches(pixels, account, body, fresh) : { eventsReceived: 0, messages: [], traceId: null };
      return {
        pixelId: body.pixelId,
        eventsReceived: receipt.eventsReceived,
        eventsAlreadySent: repeats.size,
        messages: [...receipt.messages, ...leftOut.messages()].slice(0, MESSAGES_MAX),
        platformTraceId: receipt.traceId,
      };
    });
  });
}

/**
 * Forgets the events sent over 8 days ago: no platform takes an event older than 7 days, so none of them can be
 * sent again (a day's slack for clocks and for requests under way).
 */
export function purgeSentEvents(db: Knex): Promise<number> {
  return db('adPixelEvents').where('sentAt', '<', db.raw("now() - interval '8 days'")).delete();
}
