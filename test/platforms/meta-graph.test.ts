import { expect } from 'chai';
import { classifyMetaError } from '../../src/platforms/meta/graph.js';
import { retryAtFromUsage } from '../../src/platforms/retry-after.js';

const error = (code: number, subcode?: number) => ({
  error: { message: `(#${code}) m`, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}) },
});

describe('Meta Graph errors', () => {
  it('classifies by error code first: 190 expired, 10 and 200-299 permission, throttles, 5xx transient, the rest invalid', () => {
    expect(classifyMetaError(400, error(190, 460)).kind).to.equal('auth_expired');
    expect(classifyMetaError(400, error(190)).needsReconnection).to.equal(true);
    for (const code of [10, 200, 230, 299]) expect(classifyMetaError(400, error(code)).kind, String(code)).to.equal('permission_revoked');
    for (const code of [4, 17, 32, 613, 80000, 80004, 80014])
      expect(classifyMetaError(400, error(code)).kind, String(code)).to.equal('rate_limited');
    expect(classifyMetaError(500, {}).kind).to.equal('transient');
    expect(classifyMetaError(503, 'Service Unavailable').kind).to.equal('transient');
    expect(classifyMetaError(400, error(100, 33)).kind).to.equal('invalid_request');
    expect(classifyMetaError(400, error(80015)).kind).to.equal('invalid_request');
    expect(classifyMetaError(400, error(190)).details.platformCode).to.equal(190);
  });

  it("reads Meta's 401 as a token that does not work, with the Graph's error body (190) or without one", () => {
    expect(classifyMetaError(401, error(190, 460)).kind).to.equal('auth_expired');
    expect(classifyMetaError(401, '').kind).to.equal('auth_expired');
    expect(classifyMetaError(401, {}).needsReconnection).to.equal(true);
  });

  it('takes the time to come back from the usage headers where they give it, the longest of them', () => {
    const now = Date.UTC(2026, 10, 22);
    const headers = new Headers({
      'X-Business-Use-Case-Usage': JSON.stringify({
        123: [
          { type: 'pages', call_count: 100, estimated_time_to_regain_access: 5 },
          { type: 'ads_management', estimated_time_to_regain_access: 12 },
        ],
      }),
      'X-Ad-Account-Usage': JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 300 }),
    });
    expect(retryAtFromUsage(headers, now)!.getTime() - now).to.equal(12 * 60_000);
    expect(retryAtFromUsage(new Headers({ 'X-Ad-Account-Usage': '{"reset_time_duration":90}' }), now)!.getTime() - now).to.equal(90_000);
    expect(retryAtFromUsage(new Headers({ 'X-App-Usage': '{"call_count":100}' }), now)).to.equal(undefined);
    expect(retryAtFromUsage(new Headers({ 'X-Business-Use-Case-Usage': 'not json' }), now)).to.equal(undefined);
    const throttled = classifyMetaError(
      400,
      error(80004),
      new Headers({ 'X-Page-Usage': '{"call_count":100,"estimated_time_to_regain_access":3}' }),
    );
    expect(throttled.details.retryAt!.getTime() - Date.now()).to.be.within(3 * 60_000 - 1000, 3 * 60_000);
  });
});
