import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { EventData } from '../../src/modules/events/emit.js';
import type { Received } from './receiver.js';

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
