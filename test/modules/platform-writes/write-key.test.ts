import { expect } from 'chai';
import { writeKey } from '../../../src/modules/platform-writes/write-key.js';

/** A request as a handler sees it, with or without an Idempotency-Key. */
const request = (idempotencyKey?: string) => ({
  koa: { get: (name: string) => (name === 'Idempotency-Key' ? (idempotencyKey ?? '') : '') },
  requestId: 'req_01jf00000000000000000000ab',
});

describe('writeKey — the ledger key of a platform write an API request asks for', () => {
  it('is the Idempotency-Key under the kind, so a retry is the same write and a reply is not a hide', () => {
    expect(writeKey(request('k-1'), 'reply')).to.equal('reply:idem:k-1');
    expect(writeKey(request('k-1'), 'hide')).to.equal('hide:idem:k-1');
    expect(writeKey(request('k-1'), 'ad.create')).to.equal('ad.create:idem:k-1');
  });

  // Running services stored these; a retry answered by this version must find the same write (or event id).
  it('keeps the forms sends and calendar events had before it', () => {
    expect(writeKey(request('k-1'), 'message')).to.equal('key:k-1');
    expect(writeKey(request('k-1'), 'calendar.event')).to.equal('k-1');
  });

  it('is the request alone without an Idempotency-Key', () => {
    expect(writeKey(request(), 'message')).to.equal('message:request:req_01jf00000000000000000000ab');
    expect(writeKey(request(), 'reply')).to.equal('reply:request:req_01jf00000000000000000000ab');
  });
});
