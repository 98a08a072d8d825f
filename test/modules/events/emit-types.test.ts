import { expect } from 'chai';
import type { EventData, NewEvent } from '../../../src/modules/events/emit.js';

/** Checked by `npm run typecheck`: each `@ts-expect-error` below fails the typecheck if the line ever compiles. */
describe('events — the contract types the data of each event', () => {
  const test: EventData<'webhook.test'> = { hookId: 'hook_01jd3y6w7q5v8k0n2b4c6e8g1h', message: 'A test.', sentAt: '2026-11-24T10:00:00Z' };

  it("takes the data the contract declares for the event's name", () => {
    const event: NewEvent = { ownerId: 'own_01jd3y6w7q5v8k0n2b4c6e8g1h', profileId: null, name: 'webhook.test', data: test };
    expect(event.data).to.equal(test);
  });

  it("does not compile with another event's data, or with data missing a member", () => {
    // @ts-expect-error a webhook test's data under message.received
    const misnamed: NewEvent = { ownerId: 'own_01jd3y6w7q5v8k0n2b4c6e8g1h', profileId: null, name: 'message.received', data: test };
    const partial: NewEvent<'post.published'> = {
      ownerId: 'own_01jd3y6w7q5v8k0n2b4c6e8g1h',
      profileId: null,
      name: 'post.published',
      // @ts-expect-error post.published without its targets
      data: { postId: 'post_1', status: 'published', scheduledAt: null },
    };
    expect([misnamed.name, partial.name]).to.deep.equal(['message.received', 'post.published']);
  });
});
