import { expect } from 'chai';
import { emitEvent } from '../../../src/modules/events/emit.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { BotchatPeople, connectBot } from '../../support/sandbox/botchat.js';
import { publishedData } from '../../support/webhooks.js';
import { settled, waitForPost } from '../publishing/posts-support.js';
import { png, upload } from '../publishing/support.js';
import { usageSettings, usageWhen } from './support.js';

describe('usage counters — what a user does shows in GET /usage', () => {
  let app: TestApp;
  let receiver: Receiver;
  let owner: TestOwner;
  before(async () => {
    receiver = await Receiver.start();
    app = await startTestApp(usageSettings());
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  it("counts the API requests of the month, those of a one-profile key as that profile's", async () => {
    const key = await restrictedKey(app.api, owner, [owner.profileId]);
    for (let i = 0; i < 3; i += 1) expect((await app.api.get('/profiles', { token: key })).status).to.equal(200);
    const ofProfile = await usageWhen(app, owner.session, (u) => u.usage.apiRequests.used >= 3, `?profileId=${owner.profileId}`);
    expect(ofProfile.usage.apiRequests.used).to.equal(3);
    expect(ofProfile.profileId).to.equal(owner.profileId);
    // The owner's total has the session's and the unrestricted key's requests too (sign-up's keys and profile, the reads).
    const total = await usageWhen(app, owner.session, (u) => u.usage.apiRequests.used > 3);
    expect(total.profileId).to.equal(null);
  });

  it('counts the bytes of uploaded media', async () => {
    const bytes = png(8, 8);
    const uploaded = await upload(app, owner.key, { bytes, filename: 'a.png', type: 'image/png' }, { profileId: owner.profileId });
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
    const usage = await usageWhen(app, owner.key, (u) => u.usage.mediaStorageBytes.used > 0, `?profileId=${owner.profileId}`);
    expect(usage.usage.mediaStorageBytes.used).to.equal(bytes.length);
  });

  it("counts each webhook delivery attempt, as the event's profile's", async () => {
    receiver.reply = () => ({ status: 200 });
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/usage`, events: ['post.published'] } });
    expect(hook.status).to.equal(201);
    await emitEvent(app.services.db, {
      ownerId: owner.ownerId,
      profileId: owner.profileId,
      name: 'post.published',
      data: publishedData('x'),
    });
    await emitEvent(app.services.db, {
      ownerId: owner.ownerId,
      profileId: owner.profileId,
      name: 'post.published',
      data: publishedData('y'),
    });
    const usage = await usageWhen(app, owner.key, (u) => u.usage.webhookDeliveries.used >= 2, `?profileId=${owner.profileId}`);
    expect(usage.usage.webhookDeliveries.used).to.equal(2);
  });

  it('counts a published post once per target, and the connected accounts and profiles when read', async () => {
    const first = await connectBot(app, owner);
    const second = await connectBot(app, owner);
    await new BotchatPeople(() => app).newChannel('@usage_news');
    const created = await app.api.post('/posts', {
      token: owner.key,
      body: {
        text: 'Counted twice.',
        accountIds: [first.accountId, second.accountId],
        publishNow: true,
        platformOptions: { botchat: { chatIds: ['@usage_news'] } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    expect((await waitForPost(app, owner, created.body.id, settled)).status).to.equal('published');
    const usage = await usageWhen(app, owner.key, (u) => u.usage.posts.used >= 2);
    expect(usage.usage.posts.used).to.equal(2);
    expect(usage.usage.connectedAccounts.used).to.equal(2);
    expect(usage.usage.profiles.used).to.equal(1);
  });
});

describe('usage counters — a graceful stop', () => {
  it('writes what was counted since the last flush: another process reads it', async () => {
    const first = await startTestApp({ usage: { flushMs: 3_600_000, plans: null } });
    const owner = await newOwner(first.api);
    for (let i = 0; i < 4; i += 1) await first.api.get('/profiles', { token: owner.key });
    expect(await first.services.db('usageCounters').where({ ownerId: owner.ownerId })).to.have.length(0);
    await first.close();
    const second = await startTestApp({ ...usageSettings(), databaseUrl: first.services.config.databaseUrl });
    try {
      const rows = await second.services.db('usageCounters').where({ ownerId: owner.ownerId, counter: 'apiRequests' });
      // Sign-up's two requests with the session and the four reads with the key.
      expect(rows.reduce((sum: number, row: { value: string }) => sum + Number(row.value), 0)).to.equal(6);
    } finally {
      await second.close();
    }
  });
});
