import { expect } from 'chai';
import { Contract } from '../../src/http/contract.js';
import { fieldErrors } from '../../src/http/field-errors.js';

/**
 * The "one of these members" rules of request bodies, checked by the service's own validator: which bodies it
 * accepts and which it refuses, with the members each refusal names. The docs and generated clients read these
 * rules from the same schemas, so their shape may change; what the service accepts may not.
 */
describe('the members a request body must choose between', () => {
  let contract: Contract;
  before(async () => {
    contract = await Contract.load();
  });

  /** The errors a caller is shown (src/http/field-errors.ts: only those of the alternative meant). */
  function check(method: string, path: string, body: object): Array<{ path: string; code: string }> {
    const operation = contract.match(method, path)!;
    const result = contract.validator.validateRequest(
      { method, path, headers: { 'content-type': 'application/json' }, query: {}, body },
      operation,
    );
    return fieldErrors(result.errors ?? []).map((error) => ({ path: error.path, code: error.code }));
  }
  const accepts = (method: string, path: string, body: object) => expect(check(method, path, body), JSON.stringify(body)).to.deep.equal([]);
  const refuses = (method: string, path: string, body: object) =>
    expect(check(method, path, body), JSON.stringify(body)).to.not.deep.equal([]);

  const accountIds = ['acc_01jd3z8x9y0a1b2c3d4e5f6g7h'];
  const mediaIds = ['media_01jd4b7c8d9e0f1g2h3j4k5m6n'];
  const scheduledAt = '2030-01-01T08:00:00Z';

  describe('POST /posts', () => {
    // A post with neither text nor media is refused by the service, not its schema (test/http/field-errors.test.ts).
    it('takes text, media or both', () => {
      accepts('POST', '/posts', { accountIds, text: 'Hello', publishNow: true });
      accepts('POST', '/posts', { accountIds, mediaIds, publishNow: true });
      accepts('POST', '/posts', { accountIds, text: 'Hello', mediaIds, publishNow: true });
    });

    it('takes exactly one of publishNow, scheduledAt and useQueue', () => {
      accepts('POST', '/posts', { accountIds, text: 'Hello', scheduledAt });
      accepts('POST', '/posts', { accountIds, text: 'Hello', useQueue: true });
      refuses('POST', '/posts', { accountIds, text: 'Hello' });
      refuses('POST', '/posts', { accountIds, text: 'Hello', publishNow: true, scheduledAt });
      refuses('POST', '/posts', { accountIds, text: 'Hello', publishNow: true, useQueue: true });
      refuses('POST', '/posts', { accountIds, text: 'Hello', scheduledAt, useQueue: true });
      refuses('POST', '/posts', { accountIds, text: 'Hello', publishNow: true, scheduledAt, useQueue: true });
    });

    it('refuses publishNow or useQueue set to false rather than reading it as absent', () => {
      refuses('POST', '/posts', { accountIds, text: 'Hello', publishNow: false, scheduledAt });
      refuses('POST', '/posts', { accountIds, text: 'Hello', useQueue: false });
    });

    it('names the bad member when the chosen one is malformed, and no other', () => {
      expect(check('POST', '/posts', { accountIds, text: 'Hello', scheduledAt: 'tomorrow' })).to.deep.equal([
        { path: 'body/scheduledAt', code: 'format' },
      ]);
    });

    it('still refuses members it does not know, whichever schedule is chosen', () => {
      refuses('POST', '/posts', { accountIds, text: 'Hello', publishNow: true, ownerId: 'own_01jd3z8x9y0a1b2c3d4e5f6g7h' });
      refuses('POST', '/posts', { accountIds, mediaIds, useQueue: true, when: 'now' });
    });
  });

  describe('POST /queue', () => {
    const postId = 'post_01jd4a2b3c4d5e6f7g8h9j0k1m';

    it('takes exactly one of postId and post', () => {
      accepts('POST', '/queue', { postId });
      accepts('POST', '/queue', { post: { accountIds, text: 'Hello' } });
      refuses('POST', '/queue', {});
      refuses('POST', '/queue', { postId, post: { accountIds, text: 'Hello' } });
    });

    it('takes a new post with text, media or both, and nothing of a schedule', () => {
      accepts('POST', '/queue', { post: { accountIds, mediaIds } });
      accepts('POST', '/queue', { post: { accountIds, text: 'Hello', mediaIds } });
      refuses('POST', '/queue', { post: { accountIds, text: 'Hello', scheduledAt } });
    });
  });

  describe("a calendar event's start and end", () => {
    const path = '/accounts/acc_01jd3z8x9y0a1b2c3d4e5f6g7h/calendar/events';
    const event = (start: object, end: object) => ({ summary: 'Shoot', start, end });

    it('is a dateTime or a date, never both and never neither', () => {
      accepts(
        'POST',
        path,
        event({ dateTime: '2026-12-01T09:00:00+01:00' }, { dateTime: '2026-12-01T10:00:00+01:00', timeZone: 'Europe/Berlin' }),
      );
      accepts('POST', path, event({ date: '2026-12-24' }, { date: '2026-12-25' }));
      refuses('POST', path, event({ timeZone: 'Europe/Berlin' }, { date: '2026-12-25' }));
      refuses('POST', path, event({ date: '2026-12-24', dateTime: '2026-12-24T09:00:00Z' }, { date: '2026-12-25' }));
    });

    it('follows the same rule in an update', () => {
      accepts('PATCH', `${path}/evt123`, { start: { date: '2026-12-24' } });
      refuses('PATCH', `${path}/evt123`, { start: {} });
    });
  });
});
