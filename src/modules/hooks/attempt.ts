import { LRUCache } from 'lru-cache';
import type { WebhookSettings } from './settings.js';
import { type GuardedHttpClient, TransportError } from '../../lib/guarded-http.js';
import { onePer } from '../../lib/memo.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { openedForDelivery } from '../events/sealed.js';
import type { DeliveryRow, HookRow } from './models.js';
import { serviceSignature, standardSignatures } from './signing.js';

export const USER_AGENT = 'Socialgate-Webhooks/1';

export interface AttemptOutcome {
  at: Date;
  durationMs: number;
  responseStatus: number | null;
  errorClass: string | null;
  responseSnippet: string | null;
  /** Seconds the endpoint asked us to wait (Retry-After on 429 / 503). */
  retryAfterSeconds: number | null;
}

/** What sending needs of a delivery and of its hook, read with the claim. */
export type SendingDelivery = Pick<DeliveryRow, 'id' | 'hookId' | 'ownerId' | 'event' | 'body'>;
export type SendingHook = Pick<HookRow, 'id' | 'url' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'>;

/** Hooks' secrets opened, by ciphertext (a new or rotated secret is sealed anew): a delivery costs no decryption. */
const openedSecrets = onePer((_secrets: SecretBox) => new LRUCache<string, string>({ max: 10_000 }));

function openSecret(secrets: SecretBox, ciphertext: string): string {
  const opened = openedSecrets(secrets);
  let secret = opened.get(ciphertext);
  if (secret === undefined) opened.set(ciphertext, (secret = secrets.open(ciphertext)));
  return secret;
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(hook: SendingHook, secrets: SecretBox, now = Date.now()): string[] {
  const current = openSecret(secrets, hook.secretCiphertext);
  const previousValid = hook.previousSecretCiphertext && hook.previousSecretExpiresAt && hook.previousSecretExpiresAt.getTime() > now;
  return previousValid ? [current, openSecret(secrets, hook.previousSecretCiphertext!)] : [current];
}

/** The headers of one attempt at sending `body` (the delivery's stored body with its sealed values opened). */
export function deliveryHeaders(delivery: SendingDelivery, body: string, secrets: string[], now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Signature': serviceSignature(secrets[0]!, body),
    'X-Service-Event': delivery.event,
    'X-Service-Delivery': delivery.id,
    'webhook-id': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatures(secrets, delivery.id, timestamp, body),
  };
}

function retryAfterOf(status: number, value: string | undefined): number | null {
  if (status !== 429 && status !== 503) return null;
  if (!value) return null;
  const seconds = /^\d+$/.test(value) ? Number(value) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** One POST of the stored body (sealed values opened); success is a 2xx in time. Anything else is described, never thrown. */
export async function attemptDelivery(
  client: GuardedHttpClient,
  delivery: SendingDelivery,
  hook: SendingHook,
  secrets: SecretBox,
  settings: WebhookSettings,
): Promise<AttemptOutcome> {
  const at = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const body = openedForDelivery(secrets, delivery.body);
    const headers = deliveryHeaders(delivery, body, signingSecrets(hook, secrets), at);
    const response = await client.post(hook.url, headers, body, settings.timeoutMs);
    const ok = response.status >= 200 && response.status < 300;
    return {
      at,
      durationMs: elapsed(),
      responseStatus: response.status,
      errorClass: ok ? null : response.status >= 300 && response.status < 400 ? 'redirect' : 'http_status',
      responseSnippet: response.snippet || null,
      retryAfterSeconds: retryAfterOf(response.status, response.retryAfter),
    };
  } catch (error) {
    const kind = error instanceof TransportError ? error.kind : 'network';
    return {
      at,
      durationMs: elapsed(),
      responseStatus: null,
      errorClass: kind,
      responseSnippet: (error as Error).message.slice(0, 1024),
      retryAfterSeconds: null,
    };
  }
}
