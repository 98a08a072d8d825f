import { type IncomingAttachment, type IncomingEvent, placeAttachment } from '../capabilities/webhooks.js';
import type { GraphObjectParser } from '../meta/graph-webhook.js';

/** What we read of a page entry's Messenger events (`messaging[]`). */
interface MessagingEntry {
  id?: string;
  time?: number;
  messaging?: Messaging[];
}
interface Messaging {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: { mid?: string; text?: string; is_echo?: boolean; attachments?: MessengerAttachment[] };
  delivery?: { mids?: string[]; watermark?: number };
  read?: { watermark?: number };
}
interface MessengerAttachment {
  type?: string;
  payload?: { url?: string; sticker_id?: number; coordinates?: { lat?: number; long?: number } };
}

/** A person's Messenger message to a page: the page is the account, the person's page-scoped id (PSID) the sender. */
function messages(entries: MessagingEntry[]): IncomingEvent[] {
  const events: IncomingEvent[] = [];
  for (const entry of entries) {
    for (const event of entry.messaging ?? []) {
      const receipt = receiptOf(event, entry.id);
      if (receipt) events.push(receipt);
      const message = event.message;
      // Echoes are the page's own messages, sent from its inbox.
      const attachments = (message?.attachments ?? []).map(attachmentOf);
      const text = message?.text ?? (attachments.length > 0 ? '' : undefined);
      if (!message?.mid || message.is_echo || text === undefined || !event.sender?.id) continue;
      const pageId = event.recipient?.id ?? entry.id;
      if (!pageId) continue;
      events.push({
        kind: 'message',
        accountId: null,
        platformAccountId: pageId,
        platformConversationId: event.sender.id,
        from: event.sender.id,
        fromName: null,
        text,
        platformMessageId: message.mid,
        ...(attachments.length > 0 ? { type: attachments[0]!.type === 'other' ? 'other' : attachments[0]!.type, attachments } : {}),
        sentAt: new Date(event.timestamp ?? entry.time ?? Date.now()),
      });
    }
  }
  return events;
}

/**
 * Messenger's receipts, sent by the person's app: `delivery` names the messages (`mids`, absent on old clients)
 * and a watermark, `read` only a watermark: every message the page sent the person before it.
 */
function receiptOf(event: Messaging, entryId: string | undefined): IncomingEvent | null {
  const receipt = event.read ?? event.delivery;
  const pageId = event.recipient?.id ?? entryId;
  if (!receipt || !pageId || !event.sender?.id || receipt.watermark === undefined) return null;
  const mids = event.delivery?.mids ?? [];
  return {
    kind: 'message_status',
    accountId: null,
    platformAccountId: pageId,
    status: event.read ? 'read' : 'delivered',
    at: new Date(event.timestamp ?? receipt.watermark),
    platformMessageIds: mids,
    ...(mids.length === 0 ? { watermark: { platformConversationId: event.sender.id, upTo: new Date(receipt.watermark) } } : {}),
  };
}

/** A Messenger attachment: its CDN URL (public, short-lived), a sticker (an image with `sticker_id`), a place. */
function attachmentOf(attachment: MessengerAttachment): IncomingAttachment {
  const { lat, long } = attachment.payload?.coordinates ?? {};
  if (attachment.type === 'location' && lat !== undefined && long !== undefined) return placeAttachment(lat, long);
  const type =
    attachment.payload?.sticker_id !== undefined
      ? 'sticker'
      : attachment.type === 'file'
        ? 'document'
        : attachment.type === 'image' || attachment.type === 'video' || attachment.type === 'audio'
          ? attachment.type
          : 'other';
  return { type, url: attachment.payload?.url ?? null, ref: null, mimeType: null, fileName: null, size: null };
}

/** A page's Messenger events (the `messages`, `message_deliveries` and `message_reads` fields): messages and their receipts. */
export const pageMessenger: GraphObjectParser = {
  object: 'page',
  parse: (notification) => messages((notification.entry ?? []) as MessagingEntry[]),
};
