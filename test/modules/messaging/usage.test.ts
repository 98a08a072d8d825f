import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent } from '../../support/wait.js';
import { uploadPhoto } from '../publishing/support.js';
import { usageSettings, usageWhen } from '../usage/support.js';

describeApi('sending messages — the messages usage', { settings: usageSettings() }, (t) => {
  const { botchat } = t.sandbox;

  it("counts each platform message sent, as the account's profile's; a replay with the same key counts nothing", async () => {
    const bot = await connectBot(t.app, t.owner);
    await botchat.sendMessage(bot.token, 'Hi', { id: 4242, firstName: 'Ana' });
    await quiescent(t.app);
    const album = [await uploadPhoto(t.app, t.owner), await uploadPhoto(t.app, t.owner, 'b.png')];
    const request = {
      token: t.owner.key,
      headers: { 'Idempotency-Key': 'count-once' },
      body: { recipientId: '4242', text: 'Two', mediaIds: album },
    };
    expect((await t.app.api.post(`/accounts/${bot.accountId}/messages`, request)).status).to.equal(201);
    const usage = await usageWhen(t.app, t.owner.key, (u) => u.usage.messages.used >= 2, `?profileId=${t.owner.profileId}`);
    expect(usage.usage.messages.used).to.equal(2);
    expect((await t.app.api.post(`/accounts/${bot.accountId}/messages`, request)).status).to.equal(201);
    const text = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { recipientId: '4242', text: 'Three' },
    });
    expect(text.status).to.equal(201);
    const after = await usageWhen(t.app, t.owner.key, (u) => u.usage.messages.used >= 3, `?profileId=${t.owner.profileId}`);
    expect(after.usage.messages.used).to.equal(3);
  });
});
