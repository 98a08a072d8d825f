import { expect } from 'chai';
import { DEMO_BOT_TOKEN } from '../../../src/sandbox/botchat/platform.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { assertSigned, hookSettings } from '../hooks/support.js';

describe('botchat — connecting a bot, receiving its messages', () => {
  let app: TestApp;
  let receiver: Receiver;
  let owner: TestOwner;
  let sandbox: string;

  before(async () => {
    receiver = await Receiver.start();
    app = await startTestApp(hookSettings(receiver.caFile));
    sandbox = app.services.sandboxUrl!;
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
    receiver.received.length = 0;
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  async function newBot(): Promise<string> {
    const response = await fetch(`${sandbox}/_sandbox/botchat/bots`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"firstName":"Orders"}' });
    return (await response.json() as { token: string }).token;
  }

  async function connect(token: string, profileId = owner.profileId, key = owner.key) {
    return app.api.post('/connect/botchat', { token: key, body: { profileId, botToken: token } });
  }

  async function personWrites(token: string, text: string) {
    const response = await fetch(`${sandbox}/_sandbox/botchat/messages`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, text, from: { id: 4242, firstName: 'Ana' } }),
    });
    return response.json() as Promise<{ webhookStatus: number }>;
  }

  it('connectBotchat — verifies the token, sets the webhook, lists the account and emits account.connected', async () => {
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.connected'] } });
    const connected = await connect(DEMO_BOT_TOKEN);
    expect(connected.status).to.equal(201);
    expect(connected.body).to.include({ platform: 'botchat', kind: 'bot', platformAccountId: '1000000001', username: 'sandbox_demo_bot', status: 'connected' });
    const listed = await app.api.get('/accounts', { token: owner.key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).to.deep.equal([connected.body.id]);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: connected.body.id, platform: 'botchat', status: 'connected' });
    const info = await (await fetch(`${sandbox}/botchat/bot${DEMO_BOT_TOKEN}/getWebhookInfo`)).json() as { result: { url: string } };
    expect(info.result.url).to.equal(`${app.services.config.publicUrl}/webhooks/botchat`);
    const row = await app.services.db('accounts').where({ id: connected.body.id }).first();
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
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['message.received'] } });
    const sent = await personWrites(token, 'Is the shop open today?');
    expect(sent.webhookStatus).to.equal(200);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body.event).to.equal('message.received');
    expect(body.profileId).to.equal(owner.profileId);
    expect(Object.keys(body.data).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);
    expect(body.data).to.include({ accountId: account.body.id, from: '4242', text: 'Is the shop open today?', platform: 'botchat' });
    expect(body.data.msgId).to.match(/^msg_/);
    const stored = await app.services.db('messages').where({ id: body.data.msgId }).first();
    expect(stored).to.include({ direction: 'in', text: 'Is the shop open today?' });
  });

  it('refuses an incoming webhook with a wrong secret token, and stores nothing', async () => {
    const token = await newBot();
    const account = await connect(token);
    const forged = await app.api.post('/webhooks/botchat', {
      body: { update_id: 1, message: { message_id: 1, chat: { id: 1 }, date: 1, text: 'forged' } },
      headers: { 'X-Telegram-Bot-Api-Secret-Token': `${account.body.id}-wrong` },
    });
    expect(forged.status).to.equal(401);
    expect(forged.body.code).to.equal('invalid_signature');
    expect(await app.services.db('platformWebhooks').where({ sourceAccountId: account.body.id })).to.have.length(0);
  });

  it('drops a webhook the platform sends twice', async () => {
    const token = await newBot();
    const account = await connect(token);
    const row = await app.services.db('accounts').where({ id: account.body.id }).first();
    const secret = JSON.parse(app.services.secrets.open(row.credentialsCiphertext)).extra.webhookSecret as string;
    const update = { update_id: 77, message: { message_id: 9, from: { id: 5, first_name: 'Bo' }, chat: { id: 5 }, date: 1700000000, text: 'twice' } };
    const headers = { 'X-Telegram-Bot-Api-Secret-Token': secret };
    const first = await app.api.post('/webhooks/botchat', { body: update, headers });
    const second = await app.api.post('/webhooks/botchat', { body: update, headers });
    expect([first.body.duplicate, second.body.duplicate]).to.deep.equal([false, true]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await app.services.db('messages').where({ accountId: account.body.id })).to.have.length(1);
  });

  it('getAccountAbout reads the bot live; a token revoked on the platform turns into account.needs_reconnection', async () => {
    const token = await newBot();
    const account = await connect(token);
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.needs_reconnection', 'account.disconnected'] } });
    const about = await app.api.get(`/accounts/${account.body.id}/about`, { token: owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({ accountId: account.body.id, name: 'Orders', platform: 'botchat' });
    await fetch(`${sandbox}/_sandbox/botchat/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
    const refused = await app.api.get(`/accounts/${account.body.id}/about`, { token: owner.key });
    expect(refused.status).to.equal(409);
    const [request] = await receiver.waitFor(1);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
    const health = await app.api.get('/accounts/health', { token: owner.key });
    expect(health.body.data[0]).to.include({ accountId: account.body.id, health: 'unhealthy', action: 'reconnect', status: 'needs_reconnection' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => JSON.parse(r.rawBody).event)).to.not.include('account.disconnected');
  });

  it('deleteAccount — disconnects, removes the webhook at the platform, emits account.disconnected once', async () => {
    const token = await newBot();
    const account = await connect(token);
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.disconnected'] } });
    expect((await app.api.delete(`/accounts/${account.body.id}`, { token: owner.key })).status).to.equal(204);
    expect((await app.api.delete(`/accounts/${account.body.id}`, { token: owner.key })).status).to.equal(204);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: account.body.id, status: 'disconnected', statusReason: 'disconnected_by_user' });
    const info = await (await fetch(`${sandbox}/botchat/bot${token}/getWebhookInfo`)).json() as { result: { url: string } };
    expect(info.result.url).to.equal('');
    expect((await app.api.get('/accounts', { token: owner.key })).body.data).to.deep.equal([]);
    const read = await app.api.get(`/accounts/${account.body.id}`, { token: owner.key });
    expect(read.body).to.include({ status: 'disconnected' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).to.have.length(1);
  });

  it('keeps a restricted key to its profiles and other owners out', async () => {
    const second = await app.api.post('/profiles', { token: owner.key, body: { name: 'second' } });
    const token = await newBot();
    const account = await connect(token, second.body.id);
    const key = await restrictedKey(app.api, owner, [owner.profileId]);
    expect((await app.api.get(`/accounts/${account.body.id}`, { token: key })).status).to.equal(403);
    expect((await app.api.get('/accounts', { token: key })).body.data).to.deep.equal([]);
    expect((await connect(await newBot(), second.body.id, key)).status).to.equal(403);
    const other = await newOwner(app.api);
    expect((await app.api.get(`/accounts/${account.body.id}`, { token: other.key })).status).to.equal(404);
  });
});
