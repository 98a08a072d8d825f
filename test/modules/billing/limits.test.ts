import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { BotchatPeople, connectBot } from '../../support/sandbox/botchat.js';
import { settled, waitForPost } from '../publishing/posts-support.js';
import { billingSettings } from './support.js';

// The free plan: 1 connected account and 2 posts a month, both hard (test/modules/billing/support.ts).
describeApi('plan limits on connecting accounts and retrying posts', { settings: billingSettings() }, (t) => {
  const botchat = new BotchatPeople(() => t.app);

  it('lets only one of two racing connections take the last connected account: the other is 402', async () => {
    const bots = await Promise.all([botchat.newBot('One'), botchat.newBot('Two')]);
    const [a, b] = await Promise.all(
      bots.map(({ token }) =>
        t.app.api.post('/connect/botchat', { token: t.owner.key, body: { profileId: t.owner.profileId, botToken: token } }),
      ),
    );
    expect([a!.status, b!.status].sort()).to.deep.equal([201, 402]);
    const refused = a!.status === 402 ? a! : b!;
    expect(refused.body.code).to.equal('plan_limit_reached');
    expect(refused.body.detail).to.contain('1 connectedAccounts');
    const usage = (await t.app.api.get('/usage', { token: t.owner.key })).body;
    expect(usage.usage.connectedAccounts).to.deep.equal({ used: 1, limit: 1 });
    // Connecting the same bot again repairs it: no new account, no refusal.
    const connected = a!.status === 201 ? 0 : 1;
    const again = await t.app.api.post('/connect/botchat', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, botToken: bots[connected]!.token },
    });
    expect(again.status).to.equal(200);
  });

  it("refuses to retry a failed post whose targets no longer fit the month's posts, and retries it once one is freed", async () => {
    const bot = await connectBot(t.app, t.owner);
    await botchat.failNext(bot.token, [{ kind: 'rate_limited' }, { kind: 'rate_limited' }, { kind: 'rate_limited' }]);
    const body = (text: string, when: object) => ({
      text,
      accountIds: [bot.accountId],
      platformOptions: { botchat: { chatIds: ['7'] } },
      ...when,
    });
    const failing = await t.app.api.post('/posts', { token: t.owner.key, body: body('Fails.', { publishNow: true }) });
    expect(failing.status).to.equal(202);
    const failed = await waitForPost(t.app, t.owner, failing.body.id, settled, 15_000);
    expect(failed.status).to.equal('failed');
    const later = { scheduledAt: new Date(Date.now() + 3600_000).toISOString() };
    expect((await t.app.api.post('/posts', { token: t.owner.key, body: body('Second.', later) })).status).to.equal(201);
    const third = await t.app.api.post('/posts', { token: t.owner.key, body: body('Third.', later) });
    expect(third.status).to.equal(201);

    const refused = await t.app.api.post(`/posts/${failing.body.id}/retry`, { token: t.owner.key });
    expect(refused.status).to.equal(402);
    expect(refused.body.code).to.equal('plan_limit_reached');
    expect((await t.app.api.get(`/posts/${failing.body.id}`, { token: t.owner.key })).body.status).to.equal('failed');

    expect((await t.app.api.delete(`/posts/${third.body.id}`, { token: t.owner.key })).status).to.be.below(300);
    const retried = await t.app.api.post(`/posts/${failing.body.id}/retry`, { token: t.owner.key });
    expect(retried.status).to.equal(202);
    expect((await waitForPost(t.app, t.owner, failing.body.id, settled)).status).to.equal('published');
  });
});
