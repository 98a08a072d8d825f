import { expect } from 'chai';
import { readPlans } from '../../../src/modules/usage/plans.js';

describe('plans from configuration (BILLING_PLANS)', () => {
  it('reads none when billing is not configured: everyone is on the unlimited plan', () => {
    expect(readPlans({})).to.equal(null);
  });

  it("reads each plan's prices, limits and hard limits", () => {
    const plans = readPlans({
      BILLING_PLANS: JSON.stringify({
        free: { limits: { posts: 10 }, hard: ['posts'] },
        pro: { prices: { month: 'pro_m' }, limits: { posts: 100 } },
      }),
    })!;
    expect(plans.get('free')).to.deep.equal({ name: 'free', prices: {}, limits: { posts: 10 }, hard: ['posts'] });
    expect(plans.get('pro')!.prices).to.deep.equal({ month: 'pro_m' });
  });

  it('refuses a configuration it could not enforce, saying why', () => {
    const refused = (plans: unknown) => () => readPlans({ BILLING_PLANS: JSON.stringify(plans) });
    expect(refused({ pro: {} })).to.throw(/must have a "free" plan/);
    expect(refused({ free: {}, unlimited: {} })).to.throw(/cannot name a plan "unlimited"/);
    expect(refused({ free: { limits: { tweets: 1 } } })).to.throw(/limits "tweets"/);
    expect(refused({ free: { limits: { apiRequests: 1 }, hard: ['apiRequests'] } })).to.throw(
      /only posts, profiles, connectedAccounts, aiGenerations can be/,
    );
    expect(refused({ free: { hard: ['posts'] } })).to.throw(/hard without a limit/);
    expect(refused({ free: { prices: { week: 'x' } } })).to.throw(/intervals are month and year/);
  });
});
