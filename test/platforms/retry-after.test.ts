import { expect } from 'chai';
import { orAfterSeconds, retryAfterHeader, retryAfterSeconds } from '../../src/platforms/retry-after.js';

describe('the time a throttled caller may come back', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);

  it('reads Retry-After as seconds or as an HTTP-date, a date already past as now', () => {
    expect(retryAfterHeader(new Headers({ 'Retry-After': '120' }), now)!.getTime() - now).to.equal(120_000);
    expect(retryAfterHeader(new Headers({ 'Retry-After': 'Sun, 22 Nov 2026 12:05:00 GMT' }), now)!.getTime() - now).to.equal(300_000);
    expect(retryAfterHeader(new Headers({ 'Retry-After': 'Sun, 22 Nov 2026 11:00:00 GMT' }), now)!.getTime()).to.equal(now);
  });

  it('gives no time where the platform said none it can read', () => {
    expect(retryAfterHeader(new Headers(), now)).to.equal(undefined);
    expect(retryAfterHeader(undefined, now)).to.equal(undefined);
    expect(retryAfterHeader(new Headers({ 'Retry-After': 'soon' }), now)).to.equal(undefined);
    expect(retryAfterHeader(new Headers({ 'Retry-After': '-5' }), now)).to.equal(undefined);
    expect(retryAfterSeconds(undefined, now)).to.equal(undefined);
    expect(retryAfterSeconds('30', now)).to.equal(undefined);
  });

  it("reads a body's wait in seconds (the bot API's parameters.retry_after)", () => {
    expect(retryAfterSeconds(35, now)!.getTime() - now).to.equal(35_000);
  });

  it("falls back to the client's own wait only where the platform said nothing", () => {
    expect(orAfterSeconds(undefined, 60, now).getTime() - now).to.equal(60_000);
    expect(orAfterSeconds(new Date(now + 5000), 60, now).getTime() - now).to.equal(5000);
  });
});
