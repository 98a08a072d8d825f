/**
 * What a partner's program has around it, and what it shows it did. Each program beside this file is written
 * against one generator's client, as a partner writes it; test/clients/generated.test.ts generates the clients
 * from the live service's /openapi.json, typechecks the programs under --strict and runs each against it.
 */
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  headers: Record<string, string>;
  /** The body exactly as it arrived: a signature is checked against these bytes. */
  rawBody: string;
}

export interface World {
  /** The service's address (clients that read it from the document's `servers` need not be told). */
  baseUrl: string;
  /** The partner's own messenger bot, and a chat it posts to. */
  botToken: string;
  chatId: string;
  /** A picture to publish. */
  picture: File;
  /** The partner's HTTPS endpoint for hooks, and the next request it receives. */
  hookUrl: string;
  nextDelivery(): Promise<Delivery>;
}

export interface Outcome {
  accountId: string;
  mediaId: string;
  /** The post published at once, and the one queued in the profile's next free slot. */
  postId: string;
  queued: { postId: string; scheduledAt: string };
  /** The signed delivery the hook received, verified. */
  delivered: { event: string; postId: string };
}

/** A new owner's sign-up: a fresh address each run. */
export function newSignUp(): { email: string; password: string } {
  return {
    email: `partner-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'a long enough password',
  };
}

/** What the program made, and the next delivery its hook receives, verified. */
export async function withDelivery(world: World, secret: string, made: Omit<Outcome, 'delivered'>): Promise<Outcome> {
  return { ...made, delivered: verifiedEvent(await world.nextDelivery(), secret) };
}

/** What a receiver does with a delivery: the signature checked against the raw body, then the event read. */
function verifiedEvent(delivery: Delivery, secret: string): { event: string; postId: string } {
  const payload: unknown = new Webhook(secret).verify(delivery.rawBody, delivery.headers);
  if (!isPostEvent(payload)) throw new Error(`not a post's event: ${delivery.rawBody}`);
  return { event: payload.event, postId: payload.data.postId };
}

function isPostEvent(payload: unknown): payload is { event: string; data: { postId: string } } {
  if (typeof payload !== 'object' || payload === null || !('event' in payload) || !('data' in payload)) return false;
  const { event, data } = payload;
  return typeof event === 'string' && typeof data === 'object' && data !== null && 'postId' in data && typeof data.postId === 'string';
}
