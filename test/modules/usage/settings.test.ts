import { expect } from 'chai';
import { MIN_FLUSH_MS, usageSettings } from '../../../src/modules/usage/settings.js';

describe('usage settings (USAGE_FLUSH_MS)', () => {
  it('refuses a flush interval under the minimum at start-up, saying what it is', () => {
    expect(() => usageSettings({ USAGE_FLUSH_MS: '50' })).to.throw(`USAGE_FLUSH_MS must be at least ${MIN_FLUSH_MS}`);
    expect(() => usageSettings({ USAGE_FLUSH_MS: '0' })).to.throw(/at least/);
  });

  it('takes the minimum and more, and defaults to 10 seconds', () => {
    expect(usageSettings({ USAGE_FLUSH_MS: String(MIN_FLUSH_MS) }).usage.flushMs).to.equal(MIN_FLUSH_MS);
    expect(usageSettings({}).usage.flushMs).to.equal(10_000);
  });
});
