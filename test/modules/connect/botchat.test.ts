import { expect } from 'chai';
import { DEMO_BOT_TOKEN } from '../../../src/sandbox/botchat/platform.js';
import { storedAccount } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent } from '../../support/wait.js';
import { assertSigned } from '../../support/webhooks.js';

describeApi('botchat — connecting a bot, receiving its messages', (t) => {
  const { botchat } = t.sandbox;
  const newBot = async () => (await botchat.newBot('Orders')).token;
  const connect = (botToken: string, profileId = t.owner.profileId, key = t.owner.key) =>
    t.app.api.post('/connect/botchat', { token: key, body: { profileId, botToken } });
  const hook = (events: string[]) => t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events } });

  it('connectBotchat — verifies the token, sets the webhook, lists the account and emits account.connected', async () => {
    const connectedHook = await hook(['account.connected']);
    const connected = await connect(DEMO_BOT_TOKEN);
    expect(connected.status).to.equal(201);
    expect(connected.body).to.include({
      platform: 'botchat',
      kind: 'bot',
      platformAccountId: '1000000001',
      username: 'sandbox_demo_bot',
      status: 'connected',
    });
    const listed = await t.app.api.get('/accounts', { token: t.owner.key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).to.deep.equal([connected.body.id]);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, connectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: connected.body.id, platform: 'botchat', status: 'connected' });
    const info = (await (await fetch(`${t.app.services.sandboxUrl}/botchat/bot${DEMO_BOT_TOKEN}/getWebhookInfo`)).json()) as {
      result: { url: string };
    };
    expect(info.result.url).to.equal(`${t.app.services.config.publicUrl}/webhooks/botchat`);
    const row = await t.app.services.db('accounts').where({ id: connected.body.id }).first();
    expect(row.credentialsCiphertext).to.not.include(DEMO_BOT_TOKEN);
  });

  it('connecting the same bot again repairs it (200, same id); a token the platform does not know is 422', async () => {
    const token = await newBot();
    const first = await connect(token);
    const again = await connect(token);
    expect(again.status).to.equal(200);
    expect(again.body.id).to.equal(first.body.id);
    const bad = await connect('123456789:AAHk3v9QxL2mN8pR4sT6uW1yZ3bC5dE7fG9');
    expect(bad.status).to.equal(422);
    expect(bad.body.code).to.equal('platform_credentials_invalid');
  });

  it('a message to the bot arrives at a subscribed hook as message.received with exactly the specified data', async () => {
    const token = await newBot();
    const account = await connect(token);
    const messageHook = await hook(['message.received']);
    const sent = await botchat.sendMessage(token, 'Is the shop open today?');
    expect(sent.webhookStatus).to.equal(200);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, messageHook.body.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body.event).to.equal('message.received');
    expect(body.profileId).to.equal(t.owner.profileId);
    expect(Object.keys(body.data).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);
    expect(body.data).to.include({ accountId: account.body.id, from: '4242', text: 'Is the shop open today?', platform: 'botchat' });
    expect(body.data.msgId).to.match(/^msg_/);
    const stored = await t.app.services.db('messages').where({ id: body.data.msgId }).first();
    expect(stored).to.include({ direction: 'in', text: 'Is the shop open today?' });
  });

  it('refuses an incoming webhook with a wrong secret token, and stores nothing', async () => {
    const token = await newBot();
    const account = await connect(token);
    const forged = await t.app.api.post('/webhooks/botchat', {
      body: { update_id: 1, message: { message_id: 1, chat: { id: 1 }, date: 1, text: 'forged' } },
      headers: { 'X-Telegram-Bot-Api-Secret-Token': `${account.body.id}-wrong` },
    });
    expect(forged.status).to.equal(401);
    expect(forged.body.code).to.equal('invalid_signature');
    expect(await t.app.services.db('platformWebhooks').where({ sourceAccountId: account.body.id })).to.have.length(0);
  });

  it('accepts the new secret of a bot connected again at once, though the old one was checked a moment before', async () => {
    const token = await newBot();
    const account = await connect(token);
    const secretOf = async () => (await storedAccount(t.app, account.body.id)).credentials.extra!.webhookSecret as string;
    const deliver = (updateId: number, secret: string) =>
      t.app.api.post('/webhooks/botchat', {
        body: {
          update_id: updateId,
          message: { message_id: updateId, from: { id: 6, first_name: 'Ana' }, chat: { id: 6 }, date: 1700000000, text: 'hi' },
        },
        headers: { 'X-Telegram-Bot-Api-Secret-Token': secret },
      });
    const old = await secretOf();
    expect((await deliver(1, old)).status).to.equal(200);
    expect((await connect(token)).body.id).to.equal(account.body.id);
    const renewed = await secretOf();
    expect(renewed).to.not.equal(old);
    expect((await deliver(2, renewed)).status).to.equal(200);
    expect((await deliver(3, `${renewed}-wrong`)).status).to.equal(401);
  });

  it('drops a webhook the platform sends twice', async () => {
    const token = await newBot();
    const account = await connect(token);
    const secret = (await storedAccount(t.app, account.body.id)).credentials.extra!.webhookSecret as string;
    const update = {
      update_id: 77,
      message: { message_id: 9, from: { id: 5, first_name: 'Bo' }, chat: { id: 5 }, date: 1700000000, text: 'twice' },
    };
    const headers = { 'X-Telegram-Bot-Api-Secret-Token': secret };
    const first = await t.app.api.post('/webhooks/botchat', { body: update, headers });
    const second = await t.app.api.post('/webhooks/botchat', { body: update, headers });
    expect([first.body.duplicate, second.body.duplicate]).to.deep.equal([false, true]);
    await quiescent(t.app);
    expect(await t.app.services.db('messages').where({ accountId: account.body.id })).to.have.length(1);
  });

  it('getAccountAbout reads the bot live; a token revoked on the platform turns into account.needs_reconnection', async () => {
    const token = await newBot();
    const account = await connect(token);
    await hook(['account.needs_reconnection', 'account.disconnected']);
    const about = await t.app.api.get(`/accounts/${account.body.id}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({ accountId: account.body.id, name: 'Orders', platform: 'botchat' });
    await botchat.revokeToken(token);
    const refused = await t.app.api.get(`/accounts/${account.body.id}/about`, { token: t.owner.key });
    expect(refused.status).to.equal(409);
    const [request] = await t.inbox.waitFor(1);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
    const health = await t.app.api.get('/accounts/health', { token: t.owner.key });
    expect(health.body.data[0]).to.include({
      accountId: account.body.id,
      health: 'unhealthy',
      action: 'reconnect',
      status: 'needs_reconnection',
    });
    await quiescent(t.app);
    expect(t.inbox.events().map((event) => event.event)).to.not.include('account.disconnected');
  });

  it('deleteAccount — disconnects, removes the webhook at the platform, emits account.disconnected once', async () => {
    const token = await newBot();
    const account = await connect(token);
    const disconnectedHook = await hook(['account.disconnected']);
    expect((await t.app.api.delete(`/accounts/${account.body.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/accounts/${account.body.id}`, { token: t.owner.key })).status).to.equal(204);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, disconnectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({
      accountId: account.body.id,
      status: 'disconnected',
      statusReason: 'disconnected_by_user',
    });
    const info = (await (await fetch(`${t.app.services.sandboxUrl}/botchat/bot${token}/getWebhookInfo`)).json()) as {
      result: { url: string };
    };
    expect(info.result.url).to.equal('');
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data).to.deep.equal([]);
    const read = await t.app.api.get(`/accounts/${account.body.id}`, { token: t.owner.key });
    expect(read.body).to.include({ status: 'disconnected' });
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
  });

  it('keeps a restricted key to its profiles and other owners out', async () => {
    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const token = await newBot();
    const account = await connect(token, second.body.id);
    const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    expect((await t.app.api.get(`/accounts/${account.body.id}`, { token: key })).status).to.equal(403);
    expect((await t.app.api.get('/accounts', { token: key })).body.data).to.deep.equal([]);
    expect((await connect(await newBot(), second.body.id, key)).status).to.equal(403);
    const other = await newOwner(t.app.api);
    expect((await t.app.api.get(`/accounts/${account.body.id}`, { token: other.key })).status).to.equal(404);
  });

  itPagesByKeyset(t, 'listAccounts, filtered by profileId', async (count) => {
    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const made: Array<{ id: string; profileId: string }> = [];
    for (let n = 0; n < count; n += 1) {
      const profileId = n % 2 ? second.body.id : t.owner.profileId;
      made.unshift({ id: (await connect(await newBot(), profileId)).body.id, profileId });
    }
    const inSecond = made.filter((item) => item.profileId === second.body.id).map((item) => item.id);
    return { path: '/accounts', ids: made.map((item) => item.id), filter: { query: `profileId=${second.body.id}`, ids: inSecond } };
  });

  itPagesByKeyset(t, 'listAccountHealth', async (count) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n += 1) ids.unshift((await connectBot(t.app, t.owner)).accountId);
    return {
      path: '/accounts/health',
      ids,
      page: (body) => ({ data: body.data.map((item: { accountId: string }) => ({ id: item.accountId })), nextCursor: body.nextCursor }),
    };
  });
});
