import { expect } from 'chai';
import { decodeTime } from 'ulid';
import { newRequestId } from '../../src/http/problem.js';

describe('request ids', () => {
  it('are req_ and a lowercase ULID of the current millisecond, all distinct', () => {
    const before = Date.now();
    const ids = Array.from({ length: 2000 }, () => newRequestId());
    const after = Date.now();
    for (const id of ids) {
      expect(id).to.match(/^req_[0-9a-hjkmnp-tv-z]{26}$/);
      expect(decodeTime(id.slice(4).toUpperCase())).to.be.within(before, after);
    }
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('spread their random part over the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 500 }, () => newRequestId().slice(14)).join(''));
    expect(seen.size).to.equal(32);
  });
});
