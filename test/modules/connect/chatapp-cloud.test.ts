import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { classifyGraphError } from '../../../src/platforms/chatapp-cloud/client.js';
import {
  DEMO_ACCESS_TOKEN,
  DEMO_PHONE_NUMBER_ID,
  DEMO_VERIFIED_NAME,
  DEMO_WABA_ID,
  SANDBOX_APP_SECRET,
  SANDBOX_VERIFY_TOKEN,
} from '../../../src/sandbox/chatapp-cloud/platform.js';
import { describeApi } from '../../support/harness.js';
import type { SandboxNumber } from '../../support/sandbox/chatapp-cloud.js';
import { quiescent } from '../../support/wait.js';
import { assertSigned } from '../../support/webhooks.js';

describeApi('chatapp-cloud — connecting a cloud API number, receiving its messages', (t) => {
  const { chatappCloud } = t.sandbox;
  const connect = (number: Pick<SandboxNumber, 'wabaId' | 'phoneNumberId' | 'accessToken'>, extra: Record<string, string> = {}) =>
    t.app.api.post('/connect/chatapp-cloud', {
      token: t.owner.key,
      body: {
        profileId: t.owner.profileId,
        phoneNumberId: number.phoneNumberId,
        wabaId: number.wabaId,
        accessToken: number.accessToken,
        ...extra,
      },
    });
  const hook = (events: string[]) => t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events } });
  const sign = (raw: string, secret = SANDBOX_APP_SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

  it('connectChatappCloud — verifies token and number, subscribes the webhooks to us, lists the account, emits account.connected', async () => {
    const connectedHook = await hook(['account.connected']);
    const demo = { wabaId: DEMO_WABA_ID, phoneNumberId: DEMO_PHONE_NUMBER_ID, accessToken: DEMO_ACCESS_TOKEN };
    const connected = await connect(demo);
    expect(connected.status).to.equal(201);
    expect(connected.body).to.include({
      platform: 'chatapp-cloud',
      kind: 'phone_number',
      platformAccountId: DEMO_PHONE_NUMBER_ID,
      name: DEMO_VERIFIED_NAME,
      username: null,
      status: 'connected',
    });
    expect(connected.body.scopes).to.include.members(['whatsapp_business_messaging', 'whatsapp_business_management']);
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data.map((a: { id: string }) => a.id)).to.deep.equal([
      connected.body.id,
    ]);
    const health = await t.app.api.get('/accounts/health', { token: t.owner.key });
    expect(health.body.data[0]).to.include({ accountId: connected.body.id, health: 'unchecked', action: 'none' });
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, connectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: connected.body.id, platform: 'chatapp-cloud', status: 'connected' });
    const subscribed = (await (
      await fetch(`${t.app.services.sandboxUrl}/chatapp-cloud/v25.0/${DEMO_WABA_ID}/subscribed_apps`, {
        headers: { Authorization: `Bearer ${DEMO_ACCESS_TOKEN}` },
      })
    ).json()) as any;
    expect(subscribed.data[0].override_callback_uri).to.equal(`${t.app.services.config.publicUrl}/webhooks/chatapp-cloud`);
    const row = await t.app.services.db('accounts').where({ id: connected.body.id }).first();
    expect(row.credentialsCiphertext).to.not.include(DEMO_ACCESS_TOKEN);
  });

  it('a repair answers 200 with the same id; a bad token, a number of another business or missing permissions are 422', async () => {
    const number = await chatappCloud.newNumber();
    const first = await connect(number);
    const again = await connect(number);
    expect([first.status, again.status]).to.deep.equal([201, 200]);
    expect(again.body.id).to.equal(first.body.id);
    const badToken = await connect({ ...number, accessToken: 'EAAunknownunknownunknown0000' });
    expect(badToken.status).to.equal(422);
    expect(badToken.body.code).to.equal('platform_credentials_invalid');
    const other = await chatappCloud.newNumber();
    expect((await connect({ ...number, wabaId: other.wabaId, accessToken: other.accessToken })).status).to.equal(422);
    const weak = await chatappCloud.newNumber({ scopes: ['whatsapp_business_management'] });
    const refused = await connect(weak);
    expect(refused.status).to.equal(422);
    expect(refused.body.detail).to.include('whatsapp_business_messaging');
  });

  it('registers a number not registered yet with its PIN; a wrong PIN is 422', async () => {
    const number = await chatappCloud.newNumber({ registered: false });
    const wrong = await connect(number, { pin: '000000' });
    expect(wrong.status).to.equal(422);
    const connected = await connect(number, { pin: number.pin });
    expect(connected.status).to.equal(201);
    const read = (await (
      await fetch(`${t.app.services.sandboxUrl}/chatapp-cloud/v25.0/${number.phoneNumberId}?fields=platform_type`, {
        headers: { Authorization: `Bearer ${number.accessToken}` },
      })
    ).json()) as any;
    expect(read.platform_type).to.equal('CLOUD_API');
  });

  it('a message to the number arrives at a subscribed hook as message.received with exactly the specified data', async () => {
    const number = await chatappCloud.newNumber();
    const account = await connect(number);
    const messageHook = await hook(['message.received']);
    const sent = await chatappCloud.sendMessage(number.phoneNumberId, 'Do you ship to Hamburg?');
    expect(sent.webhookStatus).to.equal(200);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, messageHook.body.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body).to.include({ event: 'message.received', profileId: t.owner.profileId });
    expect(Object.keys(body.data).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);
    expect(body.data).to.include({
      accountId: account.body.id,
      from: '4915112345678',
      text: 'Do you ship to Hamburg?',
      platform: 'chatapp-cloud',
    });
    expect(body.data.msgId).to.match(/^msg_/);
    const conversations = await t.app.api.get(`/accounts/${account.body.id}/conversations`, { token: t.owner.key });
    expect(conversations.body.data[0].participants[0]).to.include({ id: '4915112345678', name: 'Ana', phone: '+4915112345678' });
  });

  it('answers the GET handshake with the challenge as plain text, and 403 to a wrong verify token', async () => {
    const query = (token: string) =>
      `/webhooks/chatapp-cloud?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const ok = await t.app.api.get(query(SANDBOX_VERIFY_TOKEN));
    expect(ok.status).to.equal(200);
    expect(ok.headers.get('content-type')).to.match(/^text\/plain/);
    expect(ok.text).to.equal('1158201444');
    const refused = await t.app.api.get(query('not-the-token'));
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('webhook_verification_failed');
  });

  it('refuses a forged or unsigned webhook (401) and stores nothing; drops one sent twice', async () => {
    const number = await chatappCloud.newNumber();
    await connect(number);
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550110001', phone_number_id: number.phoneNumberId },
                contacts: [{ profile: { name: 'Eve' }, wa_id: '15550009999' }],
                messages: [
                  { from: '15550009999', id: `wamid.forged${Date.now()}`, timestamp: '1763805600', type: 'text', text: { body: 'forged' } },
                ],
              },
            },
          ],
        },
      ],
    };
    const raw = JSON.stringify(payload);
    const before = (await t.app.services.db('platformWebhooks').where({ platform: 'chatapp-cloud' })).length;
    const forged = await t.app.api.post('/webhooks/chatapp-cloud', {
      rawBody: raw,
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': sign(raw, 'not-the-app-secret') },
    });
    expect(forged.status).to.equal(401);
    expect(forged.body.code).to.equal('invalid_signature');
    const unsigned = await t.app.api.post('/webhooks/chatapp-cloud', { rawBody: raw, headers: { 'Content-Type': 'application/json' } });
    expect(unsigned.status).to.equal(401);
    expect(await t.app.services.db('platformWebhooks').where({ platform: 'chatapp-cloud' })).to.have.length(before);
    const headers = { 'Content-Type': 'application/json', 'X-Hub-Signature-256': sign(raw) };
    const first = await t.app.api.post('/webhooks/chatapp-cloud', { rawBody: raw, headers });
    const second = await t.app.api.post('/webhooks/chatapp-cloud', { rawBody: raw, headers });
    expect([first.body.duplicate, second.body.duplicate]).to.deep.equal([false, true]);
    await quiescent(t.app);
    expect(await t.app.services.db('messages').where({ text: 'forged' })).to.have.length(1);
  });

  it("checks the webhooks of a number connected with its own app against that app's secret", async () => {
    const number = await chatappCloud.newNumber({ appSecret: 'own-app-secret-0123456789abcdef' });
    const account = await connect(number, { appSecret: 'own-app-secret-0123456789abcdef' });
    expect(account.status).to.equal(201);
    await hook(['message.received']);
    expect((await chatappCloud.sendMessage(number.phoneNumberId, 'via my own app')).webhookStatus).to.equal(200);
    const [request] = await t.inbox.waitFor(1);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: account.body.id, text: 'via my own app' });
  });

  it('getAccountAbout reads the number live; a token revoked on the platform turns into account.needs_reconnection', async () => {
    const number = await chatappCloud.newNumber();
    const account = await connect(number);
    await hook(['account.needs_reconnection', 'account.disconnected']);
    const about = await t.app.api.get(`/accounts/${account.body.id}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({ accountId: account.body.id, platform: 'chatapp-cloud', name: 'Acme Coffee', category: 'RESTAURANT' });
    expect(about.body.url).to.match(/^https:\/\/wa\.me\/1555011\d{4}$/);
    await chatappCloud.revokeToken(number.accessToken);
    const refused = await t.app.api.get(`/accounts/${account.body.id}/about`, { token: t.owner.key });
    expect(refused.status).to.equal(409);
    const [request] = await t.inbox.waitFor(1);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
    expect(JSON.parse(request!.rawBody).data).to.include({ statusReason: 'token_revoked', platform: 'chatapp-cloud' });
    const health = await t.app.api.get('/accounts/health', { token: t.owner.key });
    expect(health.body.data[0]).to.include({ accountId: account.body.id, health: 'unhealthy', action: 'reconnect' });
    await quiescent(t.app);
    expect(t.inbox.events().map((event) => event.event)).to.deep.equal(['account.needs_reconnection']);
  });

  it('deleteAccount — emits account.disconnected once; messages to the number are no longer stored for it', async () => {
    const number = await chatappCloud.newNumber();
    const account = await connect(number);
    const disconnectedHook = await hook(['account.disconnected', 'message.received']);
    expect((await t.app.api.delete(`/accounts/${account.body.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/accounts/${account.body.id}`, { token: t.owner.key })).status).to.equal(204);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, disconnectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({
      accountId: account.body.id,
      status: 'disconnected',
      statusReason: 'disconnected_by_user',
    });
    await chatappCloud.sendMessage(number.phoneNumberId, 'anyone there?');
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
    expect(await t.app.services.db('messages').where({ accountId: account.body.id })).to.have.length(0);
  });

  it("classifies Graph errors by Meta's codes", () => {
    const kind = (code: number, status = 400) => classifyGraphError(status, { error: { message: 'x', code } }).kind;
    expect([kind(190), kind(102)]).to.deep.equal(['auth_expired', 'auth_expired']);
    expect([kind(10), kind(200), kind(299)]).to.deep.equal(['permission_revoked', 'permission_revoked', 'permission_revoked']);
    expect([4, 17, 32, 613, 80007, 130429, 131056].map((code) => kind(code))).to.deep.equal(Array(7).fill('rate_limited'));
    expect([kind(100), kind(131047)]).to.deep.equal(['invalid_request', 'invalid_request']);
    expect(classifyGraphError(503, 'Service Unavailable').kind).to.equal('transient');
    const usage = new Headers({ 'X-Business-Use-Case-Usage': JSON.stringify({ 1: [{ estimated_time_to_regain_access: 7 }] }) });
    const retryAt = classifyGraphError(400, { error: { code: 80007 } }, usage).details.retryAt!;
    expect(retryAt.getTime() - Date.now()).to.be.within(6.9 * 60_000, 7 * 60_000 + 1000);
  });
});
