import type { IncomingEvent } from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import { TikTokWebhooks, type TikTokNotification } from '../tiktok/webhooks.js';
import { leadSubmitted } from './lead-webhooks.js';

/** An event's `content`, as read: its members depend on the event. */
type Content = Record<string, unknown>;

/**
 * The event's `content`, itself JSON. Advertiser ids are int64s past 2^53, which a plain parse would round to
 * another advertiser's id: a bare integer of 16 digits or more is made a string first.
 */
function readContent(content: string | undefined): Content {
  return jsonObject<Content>((content ?? '').replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"')) ?? {};
}

function ids(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((id) => typeof id === 'string' && id !== '') as string[];
}

/**
 * The advertisers took back the app's authorisation (in Business Center, or the grant's owner left it): their
 * tokens are revoked already, so each ad account needs a reconnection. `content`: `{advertiser_ids, reason}`.
 */
function advertisersRevoked(content: Content): IncomingEvent[] {
  return ids(content.advertiser_ids).map((id) => ({
    kind: 'permission_revoked',
    accountId: null,
    platformAccountId: null,
    platformAdAccountId: id,
    reason: 'token_revoked',
  }));
}

/** The events read, by name. A new one (a lead, an ad's review) is its parser, in a file of its own here, and one line in this list. */
const EVENTS: Record<string, (content: Content) => IncomingEvent[]> = {
  'authorization.removed': advertisersRevoked,
  'lead.submitted': leadSubmitted,
};

/**
 * The Business API's webhooks, signed with the developer app's secret (the body's `client_key` is its app id).
 * Events it sends that no parser reads are stored and kept only.
 */
export class ShortVideoAdsWebhooks extends TikTokWebhooks {
  parse(rawBody: string): IncomingEvent[] {
    const notification = jsonObject<TikTokNotification>(rawBody) ?? {};
    const parser = Object.hasOwn(EVENTS, notification.event ?? '') ? EVENTS[notification.event!] : undefined;
    return parser ? parser(readContent(notification.content)) : [];
  }
}
