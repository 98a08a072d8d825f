import { expect } from 'chai';
import type { CloseReason } from '../../../src/platforms/qrchat/driver.js';
import { QrchatSessions } from '../../../src/modules/connect/qrchat-sessions.js';
import { DEMO_BOT_TOKEN } from '../../../src/sandbox/botchat/platform.js';
import { FakeQrNetwork } from '../../../src/sandbox/qrchat/network.js';
import { describeApi } from '../../support/harness.js';
import { newOwner } from '../../support/owners.js';
import { pairNumber, qrInState } from '../../support/sandbox/qrchat.js';
import { quiescent, until } from '../../support/wait.js';
import { assertSigned } from '../../support/webhooks.js';

const PHONE = '+4915112345678';

describeApi('qrchat — pairing a number by QR code, receiving its messages', (t) => {
  const { qrchat } = t.sandbox;
  const connect = (body: Record<string, string> = {}) =>
    t.app.api.post('/connect/qrchat', { token: t.owner.key, body: { profileId: t.owner.profileId, ...body } });
  const qrOf = (id: string) => t.app.api.get(`/accounts/${id}/qrchat/qr`, { token: t.owner.key });
  const stateOf = (id: string, state: string) => qrInState(t.app, t.owner, id, state);
  const hook = (events: string[]) => t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events } });
  const pair = (phone: string, name?: string) => pairNumber(t.app, t.owner, phone, name);

  it('connectQrchat — a pending account, a rotating QR as text and PNG; the scan connects it and emits account.connected', async () => {
    const connectedHook = await hook(['account.connected']);
    const started = await connect();
    expect(started.status).to.equal(201);
    expect(started.body).to.include({
      platform: 'qrchat',
      kind: 'phone_number',
      platformAccountId: null,
      name: 'Pending pairing',
      status: 'pending',
      statusReason: 'awaiting_pairing',
      connectedAt: null,
    });
    const id = started.body.id as string;
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data.map((a: { id: string }) => a.id)).to.deep.equal([id]);
    expect((await t.app.api.get('/accounts/health', { token: t.owner.key })).body.data[0]).to.include({
      accountId: id,
      status: 'pending',
      action: 'pair',
    });
    const shown = await stateOf(id, 'awaiting_scan');
    expect(shown.body.qr.text).to.match(/^2@/);
    expect(shown.body.qr.dataUrl).to.match(/^data:image\/png;base64,/);
    expect(Date.parse(shown.body.qr.expiresAt) - Date.now()).to.be.within(50_000, 60_000);
    expect(Date.parse(shown.body.pairingExpiresAt) - Date.now()).to.be.within(280_000, 300_000);
    expect((await qrchat.scan(shown.body.qr.text, PHONE)).status).to.equal(200);
    const paired = await stateOf(id, 'paired');
    expect(paired.body).to.include({ qr: null, pairingExpiresAt: null, phoneNumber: PHONE });
    const account = await t.app.api.get(`/accounts/${id}`, { token: t.owner.key });
    expect(account.body).to.include({ status: 'connected', statusReason: null, platformAccountId: '4915112345678', name: 'Acme Coffee' });
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, connectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({
      accountId: id,
      platform: 'qrchat',
      status: 'connected',
      platformAccountId: '4915112345678',
    });
    const session = await t.app.services.db('qrchatSessions').where({ accountId: id }).first();
    expect(session.authCiphertext).to.be.a('string').and.not.include('s.whatsapp.net');
    expect(JSON.parse(t.app.services.secrets.open(session.authCiphertext)).creds.phoneNumber).to.equal('4915112345678');
  });

  it('a message from a phone arrives at a subscribed hook as message.received with exactly the specified data', async () => {
    const id = await pair('+4915100000001');
    const messageHook = await hook(['message.received']);
    expect(
      await qrchat.sendMessage({ to: '+4915100000001', from: '+4917012345678', name: 'Ana', text: 'Is the shop open today?' }),
    ).to.equal(1);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, messageHook.body.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body).to.include({ event: 'message.received', profileId: t.owner.profileId });
    expect(Object.keys(body.data).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);
    expect(body.data).to.include({ accountId: id, from: '4917012345678', text: 'Is the shop open today?', platform: 'qrchat' });
    expect(body.data.msgId).to.match(/^msg_/);
    const conversations = await t.app.api.get(`/accounts/${id}/conversations`, { token: t.owner.key });
    expect(conversations.body.data[0].participants[0]).to.include({ id: '4917012345678', name: 'Ana', phone: '+4917012345678' });
  });

  it('logged out on the phone: account.needs_reconnection (session_logged_out); pairing again with accountId keeps the id', async () => {
    const id = await pair('+4915100000002');
    await hook(['account.needs_reconnection', 'account.disconnected', 'account.connected']);
    expect(await qrchat.removeApp('+4915100000002')).to.equal(1);
    const [request] = await t.inbox.waitFor(1);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
    expect(JSON.parse(request!.rawBody).data).to.include({
      accountId: id,
      status: 'needs_reconnection',
      statusReason: 'session_logged_out',
    });
    expect((await t.app.api.get(`/accounts/${id}`, { token: t.owner.key })).body).to.include({
      status: 'needs_reconnection',
      statusReason: 'session_logged_out',
    });
    expect((await t.app.api.get('/accounts/health', { token: t.owner.key })).body.data[0]).to.include({
      accountId: id,
      health: 'unhealthy',
      action: 'pair',
    });
    expect((await qrOf(id)).body).to.include({ state: 'idle', qr: null });
    const again = await connect({ accountId: id });
    expect(again.status).to.equal(200);
    expect(again.body).to.include({ id, status: 'pending', statusReason: 'awaiting_pairing', name: 'Acme Coffee' });
    const shown = await stateOf(id, 'awaiting_scan');
    expect((await qrchat.scan(shown.body.qr.text, '+4915100000002')).status).to.equal(200);
    await stateOf(id, 'paired');
    await t.inbox.waitFor(2);
    await quiescent(t.app);
    expect(t.inbox.events().map((event) => event.event)).to.deep.equal(['account.needs_reconnection', 'account.connected']);
  });

  it('pairs by code when a phone number is given', async () => {
    const started = await connect({ phoneNumber: '4915100000003' });
    expect(started.body).to.include({ name: '+4915100000003', status: 'pending' });
    const shown = await stateOf(started.body.id, 'awaiting_code');
    expect(shown.body).to.include({ qr: null, phoneNumber: '+4915100000003' });
    expect(shown.body.pairingCode).to.match(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect((await qrchat.enterCode(shown.body.pairingCode, '+4915100000003', 'Code Shop')).status).to.equal(200);
    await stateOf(started.body.id, 'paired');
    expect((await t.app.api.get(`/accounts/${started.body.id}`, { token: t.owner.key })).body).to.include({
      status: 'connected',
      name: 'Code Shop',
    });
  });

  it('keeps rotating QR codes through the pairing window, a new series when the refs run out', async () => {
    const { network } = qrchat;
    const saved = { ...network.timings };
    Object.assign(network.timings, { firstQrMs: 300, nextQrMs: 150, refsPerConnection: 2 });
    try {
      const started = await connect();
      const seen = new Set<string>();
      // Two codes a series (after 300 ms, then 150 ms): the third and fourth are a new series, once the refs ran out.
      await until(
        async () => {
          const shown = await qrOf(started.body.id);
          expect(shown.body.state).to.be.oneOf(['starting', 'awaiting_scan']);
          if (shown.body.qr) seen.add(shown.body.qr.text);
          return seen.size;
        },
        { done: (codes) => codes >= 4, what: 'four different QR codes', timeoutMs: 5000, intervalMs: 40 },
      );
    } finally {
      Object.assign(network.timings, saved);
    }
  });

  it('getAccountAbout reads the paired number from its session', async () => {
    const id = await pair('+4915100000004', 'About Shop');
    const about = await t.app.api.get(`/accounts/${id}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({
      accountId: id,
      platform: 'qrchat',
      platformAccountId: '4915100000004',
      name: 'About Shop',
      url: 'https://wa.me/4915100000004',
    });
    expect(about.body.platformData).to.include({ sessionOpenHere: true });
  });

  it('deleteAccount — unlinks the device, emits account.disconnected once, and messages no longer arrive', async () => {
    const id = await pair('+4915100000005');
    const disconnectedHook = await hook(['account.disconnected', 'message.received', 'account.needs_reconnection']);
    expect((await t.app.api.delete(`/accounts/${id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/accounts/${id}`, { token: t.owner.key })).status).to.equal(204);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, disconnectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, status: 'disconnected', statusReason: 'disconnected_by_user' });
    expect(await qrchat.linkedDevices('+4915100000005')).to.deep.equal([]);
    expect(await qrchat.sendMessage({ to: '+4915100000005', text: 'anyone?' })).to.equal(0);
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
  });

  it('refuses accountId of another platform (422), of a connected account (409) or unknown (404); no webhook door', async () => {
    const bot = await t.app.api.post('/connect/botchat', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, botToken: DEMO_BOT_TOKEN },
    });
    expect((await connect({ accountId: bot.body.id })).body.code).to.equal('account_platform_unsupported');
    expect((await qrOf(bot.body.id)).status).to.equal(422);
    const id = await pair('+4915100000006');
    const connected = await connect({ accountId: id });
    expect([connected.status, connected.body.code]).to.deep.equal([409, 'account_already_connected']);
    expect((await connect({ accountId: 'acc_01jd4a7c9e1g3j5m7p9r1t3v5x' })).status).to.equal(404);
    const other = await newOwner(t.app.api);
    expect((await t.app.api.get(`/accounts/${id}/qrchat/qr`, { token: other.key })).status).to.equal(404);
    const forged = await t.app.api.post('/webhooks/qrchat', { body: { from: '4917000000000', text: 'forged' } });
    expect(forged.status).to.be.oneOf([400, 404]);
    expect(await t.app.services.db('messages').where({ text: 'forged' })).to.have.length(0);
  });

  it('a worker takes over a session whose holder is gone, from its stored keys (the old socket is replaced)', async () => {
    const id = await pair('+4915100000007');
    await t.app.services
      .db('qrchatSessions')
      .where({ accountId: id })
      .update({ leaseExpiresAt: new Date(Date.now() - 1000) });
    const other = new QrchatSessions(t.app.services, t.app.services.platforms.get('qrchat')!);
    try {
      await other.sweep();
      const row = await until(() => t.app.services.db('qrchatSessions').where({ accountId: id }).first(), {
        done: (found) => found.heldBy === other.holder && found.state === 'open',
        what: 'the other worker to hold the open session',
      });
      expect(row.authCiphertext).to.be.a('string');
      await hook(['message.received', 'account.needs_reconnection']);
      expect(await qrchat.sendMessage({ to: '+4915100000007', text: 'still there?' })).to.equal(1);
      const [request] = await t.inbox.waitFor(1);
      expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, text: 'still there?' });
      expect((await t.app.api.get(`/accounts/${id}`, { token: t.owner.key })).body.status).to.equal('connected');
    } finally {
      await other.stop();
    }
  });

  it('a pairing window that ended with nobody holding it leaves the account pending with pairing_expired', async () => {
    const started = await connect();
    await stateOf(started.body.id, 'awaiting_scan');
    await t.app.services
      .db('qrchatSessions')
      .where({ accountId: started.body.id })
      .update({ pairingExpiresAt: new Date(Date.now() - 1000), leaseExpiresAt: new Date(Date.now() - 1000) });
    const other = new QrchatSessions(t.app.services, t.app.services.platforms.get('qrchat')!);
    try {
      await other.sweep();
    } finally {
      await other.stop();
    }
    expect((await qrOf(started.body.id)).body).to.include({ state: 'idle', qr: null, pairingExpiresAt: null });
    expect((await t.app.api.get(`/accounts/${started.body.id}`, { token: t.owner.key })).body).to.include({
      status: 'pending',
      statusReason: 'pairing_expired',
    });
  });

  it('the sandbox driver: 60 s then 20 s QR refs, 408 when they run out, 515 after a scan, 401 once logged out', async () => {
    const network = new FakeQrNetwork({ firstQrMs: 120, nextQrMs: 40, refsPerConnection: 3, handshakeMs: 1 });
    const log: Array<[string, number, number?]> = [];
    const started = Date.now();
    let saved: unknown = null;
    const events = (tag: string) => ({
      qr: (_text: string, expiresAt: Date) => log.push([`${tag}qr`, Date.now() - started, expiresAt.getTime() - Date.now()]),
      pairing: () => log.push([`${tag}pairing`, Date.now() - started]),
      open: () => log.push([`${tag}open`, Date.now() - started]),
      message: () => log.push([`${tag}message`, Date.now() - started]),
      receipt: () => log.push([`${tag}receipt`, Date.now() - started]),
      closed: (reason: CloseReason) => log.push([`${tag}closed:${reason}`, Date.now() - started]),
    });
    network.connect(null, events(''), async (creds) => {
      saved = creds;
    });
    await until(() => log.length, { done: (n) => n >= 4, what: 'four events', timeoutMs: 3000 });
    expect(log.map(([name]) => name)).to.deep.equal(['qr', 'qr', 'qr', 'closed:qr_timeout']);
    expect(log[0]![2]).to.be.within(110, 120);
    expect(log[1]![2]).to.be.within(30, 40);
    log.length = 0;
    const second = network.connect(null, events(''), async (creds) => {
      saved = creds;
    });
    await until(() => second.qr, { what: 'a QR code', timeoutMs: 3000 });
    expect(await network.scan(second.qr!.text, PHONE, 'Shop')).to.have.property('id');
    expect(log.map(([name]) => name)).to.deep.equal(['qr', 'pairing', 'closed:restart_required']);
    network.connect(saved as never, events('resumed-'), async () => {});
    await until(() => log.length, { done: (n) => n >= 4, what: 'four events', timeoutMs: 3000 });
    expect(network.logOut(PHONE)).to.equal(1);
    expect(log.slice(3).map(([name]) => name)).to.deep.equal(['resumed-open', 'resumed-closed:logged_out']);
    network.connect(saved as never, events('again-'), async () => {});
    await until(() => log.length, { done: (n) => n >= 6, what: 'six events', timeoutMs: 3000 });
    expect(log.slice(5).map(([name]) => name)).to.deep.equal(['again-closed:logged_out']);
  });
});
