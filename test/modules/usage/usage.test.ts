import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { usageSettings, usageWhen } from './support.js';

function thisMonth(offset = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
}

describe('GET /usage — billing not configured (self-hosted)', () => {
  let app: TestApp;
  let owner: TestOwner;
  before(async () => {
    app = await startTestApp(usageSettings());
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
  });
  after(async () => {
    await app.close();
  });

  it('answers this month on the unlimited plan: no limits, no subscription', async () => {
    const response = await app.api.get('/usage', { token: owner.key });
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ period: thisMonth(), plan: 'unlimited', subscriptionStatus: 'none', profileId: null });
    expect(response.body.periodStart).to.equal(`${thisMonth()}-01T00:00:00.000Z`);
    expect(response.body.periodEnd).to.equal(`${thisMonth(1)}-01T00:00:00.000Z`);
    for (const metric of Object.values(response.body.usage) as Array<{ limit: number | null }>) expect(metric.limit).to.equal(null);
  });

  it('answers a past month with zero counts, a future one 422 period_out_of_range, a malformed one 400', async () => {
    const past = await app.api.get(`/usage?period=${thisMonth(-1)}`, { token: owner.key });
    expect(past.status).to.equal(200);
    expect(past.body.usage.apiRequests.used).to.equal(0);
    const future = await app.api.get(`/usage?period=${thisMonth(1)}`, { token: owner.key });
    expect(future.status).to.equal(422);
    expect(future.body.code).to.equal('period_out_of_range');
    expect((await app.api.get('/usage?period=2026-13', { token: owner.key })).status).to.equal(400);
  });

  it('answers the months of years 0–99 as those years, not as 1900–1999', async () => {
    for (const [period, start, end] of [
      ['0000-01', '0000-01-01', '0000-02-01'],
      ['0099-12', '0099-12-01', '0100-01-01'],
    ]) {
      const answer = await app.api.get(`/usage?period=${period}`, { token: owner.key });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body).to.include({ period, periodStart: `${start}T00:00:00.000Z`, periodEnd: `${end}T00:00:00.000Z` });
    }
  });

  it("shows a profile-restricted key its profiles' usage only", async () => {
    const other = await app.api.post('/profiles', { token: owner.session, body: { name: 'Other' } });
    const key = await restrictedKey(app.api, owner, [owner.profileId]);
    await app.api.get('/profiles', { token: key });
    const own = await usageWhen(app, key, (u) => u.usage.apiRequests.used >= 1);
    // Its one profile's: the session's requests (the sign-up's key and profiles: no profile) are not in it.
    const owners = await usageWhen(app, owner.session, (u) => u.usage.apiRequests.used >= own.usage.apiRequests.used + 3);
    expect(own.profileId).to.equal(null);
    expect(owners.usage.profiles.used).to.equal(2);
    expect(own.usage.profiles.used).to.equal(1);
    const outside = await app.api.get(`/usage?profileId=${other.body.id}`, { token: key });
    expect(outside.status).to.equal(403);
    expect(outside.body.code).to.equal('profile_out_of_scope');
    const stranger = await newOwner(app.api);
    expect((await app.api.get(`/usage?profileId=${stranger.profileId}`, { token: owner.key })).status).to.equal(404);
  });
});

describe('GET /usage and hard limits — plans configured', () => {
  const plans = {
    free: { limits: { profiles: 2, posts: 1, apiRequests: 1000 }, hard: ['profiles', 'posts'] },
    pro: { prices: { month: 'pro_monthly', year: 'pro_yearly' }, limits: { profiles: 10, posts: 500 }, hard: ['profiles'] },
  };
  let app: TestApp;
  let owner: TestOwner;
  before(async () => {
    app = await startTestApp(usageSettings(plans));
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
  });
  after(async () => {
    await app.close();
  });

  it('puts an owner without a subscription on free, and one with an active subscription on its plan', async () => {
    const free = await app.api.get('/usage', { token: owner.key });
    expect(free.body).to.include({ plan: 'free', subscriptionStatus: 'none' });
    expect(free.body.usage.profiles).to.deep.equal({ used: 1, limit: 2 });
    expect(free.body.usage.apiRequests.limit).to.equal(1000);
    expect(free.body.usage.webhookDeliveries.limit).to.equal(null);
    await app.services.db('billingAccounts').insert({ ownerId: owner.ownerId, plan: 'pro', subscriptionStatus: 'active' });
    const pro = await app.api.get('/usage', { token: owner.key });
    expect(pro.body).to.include({ plan: 'pro', subscriptionStatus: 'active' });
    expect(pro.body.usage.profiles.limit).to.equal(10);
    await app.services.db('billingAccounts').where({ ownerId: owner.ownerId }).update({ subscriptionStatus: 'unpaid' });
    const unpaid = await app.api.get('/usage', { token: owner.key });
    expect(unpaid.body).to.include({ plan: 'free', subscriptionStatus: 'unpaid' });
  });

  it('lets only one of two racing profile creations take the last profile: the other is 402 plan_limit_reached', async () => {
    const [a, b] = await Promise.all([0, 1].map((i) => app.api.post('/profiles', { token: owner.session, body: { name: `Racer ${i}` } })));
    expect([a!.status, b!.status].sort()).to.deep.equal([201, 402]);
    const refused = a!.status === 402 ? a! : b!;
    expect(refused.body.code).to.equal('plan_limit_reached');
    expect(refused.body.detail).to.contain('2 profiles');
    expect((await app.api.get('/usage', { token: owner.key })).body.usage.profiles).to.deep.equal({ used: 2, limit: 2 });
  });

  it("refuses a post whose targets go past the month's posts, naming the period's end; racing posts cannot both take the last one", async () => {
    const bot = await connectBot(app, owner);
    const scheduledAt = new Date(Date.now() + 3600_000).toISOString();
    const post = (text: string) =>
      app.api.post('/posts', {
        token: owner.key,
        body: { text, accountIds: [bot.accountId], scheduledAt, platformOptions: { botchat: { chatIds: ['4242'] } } },
      });
    const [a, b] = await Promise.all([post('first'), post('second')]);
    expect([a!.status, b!.status].sort()).to.deep.equal([201, 402]);
    const refused = a!.status === 402 ? a! : b!;
    expect(refused.body.detail)
      .to.contain('1 posts per month')
      .and.to.contain(`${thisMonth(1)}-01T00:00:00.000Z`);
  });
});
