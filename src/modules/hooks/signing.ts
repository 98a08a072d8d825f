import { createHmac } from 'node:crypto';

/** `X-Service-Signature`: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes. */
export function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Standard Webhooks key: the base64 after `whsec_`; a secret in another form is used as its UTF-8 bytes. */
function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** Standard Webhooks `webhook-signature`: `v1,<base64 HMAC of "id.timestamp.body">`, one per secret. */
export function standardSignatures(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}
