import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../../src/lib/config.js';
import type { EventData } from '../../../src/modules/events/emit.js';
import { loadConfig } from '../../../src/lib/config.js';
import type { Received } from '../../support/receiver.js';

/** Webhook settings for tests: the local receiver allowed and trusted, retries a second apart. */
export function hookSettings(caFile: string, overrides: Partial<Config['webhooks']> = {}): Partial<Config> {
  return {
    webhooks: {
      ...loadConfig({}).webhooks, allowedCidrs: ['127.0.0.0/8'], caFile, retryScheduleSeconds: [1, 1, 1], leaseSeconds: 2, ...overrides,
    },
  };
}

/** The data of a `post.published` event of a post with no targets, for tests of delivery alone. */
export function publishedData(postId: string): EventData<'post.published'> {
  return { postId, status: 'published', scheduledAt: null, targets: [] };
}

/** What a careful receiver does: both signatures checked against the raw body, never a re-serialisation. */
export function assertSigned(request: Received, secret: string): void {
  const expected = `sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}`;
  expect(request.headers['x-service-signature']).to.equal(expected);
  const verified = new Webhook(secret).verify(request.rawBody, request.headers as Record<string, string>);
  expect(verified).to.deep.equal(JSON.parse(request.rawBody));
}
