import type { IncomingEvent } from '../capabilities/webhooks.js';

/**
 * A Graph webhook notification: the changes of one object (`object`: `page`, `permissions`, `ad_account`…),
 * by entry. What an entry holds depends on the object and its subscribed fields (`changes[]`, Messenger's
 * `messaging[]`), so each parser reads its entries as its own shape.
 */
export interface GraphNotification {
  object?: string;
  entry?: unknown[];
}

/**
 * Reads the events of one Graph object's webhooks, or of some of its fields (a page's messages, its feed, its
 * lead forms). Each is a file of its own, listed in its platform's registry of objects.
 */
export interface GraphObjectParser {
  object: string;
  parse(notification: GraphNotification): IncomingEvent[];
}
