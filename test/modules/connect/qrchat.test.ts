import { expect } from 'chai';
import type { CloseReason } from '../../../src/platforms/qrchat/driver.js';
import { QrchatSessions } from '../../../src/modules/connect/qrchat-sessions.js';
import { DEMO_BOT_TOKEN } from '../../../src/sandbox/botchat/platform.js';
import { FakeQrNetwork, qrNetworkAt } from '../../../src/sandbox/qrchat/network.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { assertSigned, hookSettings } from '../hooks/support.js';

const PHONE = '+4915112345678';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last value: ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('qrchat — pairing a number by QR code, receiving its messages', () => {
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

  const person = async (path: string, body: unknown) => {
    const response = await fetch(`${sandbox}/_sandbox/qrchat/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() as any };
  };
  const connect = (body: Record<string, string> = {}) => app.api.post('/connect/qrchat', { token: owner.key, body: { profileId: owner.profileId, ...body } });
  const qrOf = (id: string) => app.api.get(`/accounts/${id}/qrchat/qr`, { token: owner.key });
  const stateOf = (id: string, state: string) => until(() => qrOf(id), (r) => r.body.state === state);
  const hook = (events: string[]) => app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events } });
  /** Connects, waits for the QR and scans it with `phone`: the account's id once it is paired. */
  async function pair(phone: string, name = 'Acme Coffee', accountId?: string): Promise<string> {
    const started = await connect(accountId ? { accountId } : {});
    const shown = await stateOf(started.body.id, 'awaiting_scan');
    expect((await person('scan', { qr: shown.body.qr.text, phoneNumber: phone, name })).status).to.equal(200);
    await stateOf(started.body.id, 'paired');
    return started.body.id;
  }

  it('connectQrchat — a pending account, a rotating QR as text and PNG; the scan connects it and emits account.connected', async () => {
    const connectedHook = await hook(['account.connected']);
    const started = await connect();
    expect(started.status).to.equal(201);
    expect(started.body).to.include({ platform: 'qrchat', kind: 'phone_number', platformAccountId: null, name: 'Pending pairing', status: 'pending', statusReason: 'awaiting_pairing', connectedAt: null });
    const id = started.body.id as string;
    expect((await app.api.get('/accounts', { token: owner.key })).body.data.map((a: { id: string }) => a.id)).to.deep.equal([id]);
    expect((await app.api.get('/accounts/health', { token: owner.key })).body.data[0]).to.include({ accountId: id, status: 'pending', action: 'pair' });
    const shown = await stateOf(id, 'awaiting_scan');
    expect(shown.body.qr.text).to.match(/^2@/);
    expect(shown.body.qr.dataUrl).to.match(/^data:image\/png;base64,/);
    expect(Date.parse(shown.body.qr.expiresAt) - Date.now()).to.be.within(50_000, 60_000);
    expect(Date.parse(shown.body.pairingExpiresAt) - Date.now()).to.be.within(280_000, 300_000);
    expect((await person('scan', { qr: shown.body.qr.text, phoneNumber: PHONE, name: 'Acme Coffee' })).status).to.equal(200);
    const paired = await stateOf(id, 'paired');
    expect(paired.body).to.include({ qr: null, pairingExpiresAt: null, phoneNumber: PHONE });
    const account = await app.api.get(`/accounts/${id}`, { token: owner.key });
    expect(account.body).to.include({ status: 'connected', statusReason: null, platformAccountId: '4915112345678', name: 'Acme Coffee' });
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, connectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, platform: 'qrchat', status: 'connected', platformAccountId: '4915112345678' });
    const session = await app.services.db('qrchatSessions').where({ accountId: id }).first();
    expect(session.authCiphertext).to.be.a('string').and.not.include('s.whatsapp.net');
    expect(JSON.parse(app.services.secrets.open(session.authCiphertext)).creds.phoneNumber).to.equal('4915112345678');
  });

  it('a message from a phone arrives at a subscribed hook as message.received with exactly the specified data', async () => {
    const id = await pair('+4915100000001');
    const messageHook = await hook(['message.received']);
    expect((await person('messages', { to: '+4915100000001', from: '+4917012345678', name: 'Ana', text: 'Is the shop open today?' })).body.delivered).to.equal(1);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, messageHook.body.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body).to.include({ event: 'message.received', profileId: owner.profileId });
    expect(Object.keys(body.data).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);
    expect(body.data).to.include({ accountId: id, from: '4917012345678', text: 'Is the shop open today?', platform: 'qrchat' });
    expect(body.data.msgId).to.match(/^msg_/);
    const conversations = await app.api.get(`/accounts/${id}/conversations`, { token: owner.key });
    expect(conversations.body.data[0].participants[0]).to.include({ id: '4917012345678', name: 'Ana', phone: '+4917012345678' });
  });

  it('logged out on the phone: account.needs_reconnection (session_logged_out); pairing again with accountId keeps the id', async () => {
    const id = await pair('+4915100000002');
    await hook(['account.needs_reconnection', 'account.disconnected', 'account.connected']);
    expect((await person('logout', { phoneNumber: '+4915100000002' })).body.loggedOut).to.equal(1);
    const [request] = await receiver.waitFor(1);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, status: 'needs_reconnection', statusReason: 'session_logged_out' });
    expect((await app.api.get(`/accounts/${id}`, { token: owner.key })).body).to.include({ status: 'needs_reconnection', statusReason: 'session_logged_out' });
    expect((await app.api.get('/accounts/health', { token: owner.key })).body.data[0]).to.include({ accountId: id, health: 'unhealthy', action: 'pair' });
    expect((await qrOf(id)).body).to.include({ state: 'idle', qr: null });
    const again = await connect({ accountId: id });
    expect(again.status).to.equal(200);
    expect(again.body).to.include({ id, status: 'pending', statusReason: 'awaiting_pairing', name: 'Acme Coffee' });
    const shown = await stateOf(id, 'awaiting_scan');
    await person('scan', { qr: shown.body.qr.text, phoneNumber: '+4915100000002', name: 'Acme Coffee' });
    await stateOf(id, 'paired');
    await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => JSON.parse(r.rawBody).event)).to.deep.equal(['account.needs_reconnection', 'account.connected']);
  });

  it('pairs by code when a phone number is given', async () => {
    const started = await connect({ phoneNumber: '4915100000003' });
    expect(started.body).to.include({ name: '+4915100000003', status: 'pending' });
    const shown = await stateOf(started.body.id, 'awaiting_code');
    expect(shown.body).to.include({ qr: null, phoneNumber: '+4915100000003' });
    expect(shown.body.pairingCode).to.match(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect((await person('code', { code: shown.body.pairingCode, phoneNumber: '+4915100000003', name: 'Code Shop' })).status).to.equal(200);
    await stateOf(started.body.id, 'paired');
    expect((await app.api.get(`/accounts/${started.body.id}`, { token: owner.key })).body).to.include({ status: 'connected', name: 'Code Shop' });
  });

  it('keeps rotating QR codes through the pairing window, a new series when the refs run out', async () => {
    const network = qrNetworkAt(sandbox)!;
    const saved = { ...network.timings };
    Object.assign(network.timings, { firstQrMs: 300, nextQrMs: 150, refsPerConnection: 2 });
    try {
      const started = await connect();
      const seen = new Set<string>();
      const deadline = Date.now() + 2500;
      while (Date.now() < deadline) {
        const shown = await qrOf(started.body.id);
        expect(shown.body.state).to.be.oneOf(['starting', 'awaiting_scan']);
        if (shown.body.qr) seen.add(shown.body.qr.text);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      // 2.5 s is five series of 450 ms: about ten codes, each a new one (slow polling still sees several).
      expect(seen.size).to.be.at.least(4);
    } finally {
      Object.assign(network.timings, saved);
    }
  });

  it('getAccountAbout reads the paired number from its session', async () => {
    const id = await pair('+4915100000004', 'About Shop');
    const about = await app.api.get(`/accounts/${id}/about`, { token: owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({ accountId: id, platform: 'qrchat', platformAccountId: '4915100000004', name: 'About Shop', url: 'https://wa.me/4915100000004' });
    expect(about.body.platformData).to.include({ sessionOpenHere: true });
  });

  it('deleteAccount — unlinks the device, emits account.disconnected once, and messages no longer arrive', async () => {
    const id = await pair('+4915100000005');
    const disconnectedHook = await hook(['account.disconnected', 'message.received', 'account.needs_reconnection']);
    expect((await app.api.delete(`/accounts/${id}`, { token: owner.key })).status).to.equal(204);
    expect((await app.api.delete(`/accounts/${id}`, { token: owner.key })).status).to.equal(204);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, disconnectedHook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, status: 'disconnected', statusReason: 'disconnected_by_user' });
    const devices = await (await fetch(`${sandbox}/_sandbox/qrchat/devices?phoneNumber=%2B4915100000005`)).json() as { devices: string[] };
    expect(devices.devices).to.deep.equal([]);
    expect((await person('messages', { to: '+4915100000005', text: 'anyone?' })).body.delivered).to.equal(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).to.have.length(1);
  });

  it('refuses accountId of another platform (422), of a connected account (409) or unknown (404); no webhook door', async () => {
    const bot = await app.api.post('/connect/botchat', { token: owner.key, body: { profileId: owner.profileId, botToken: DEMO_BOT_TOKEN } });
    expect((await connect({ accountId: bot.body.id })).body.code).to.equal('account_platform_unsupported');
    expect((await qrOf(bot.body.id)).status).to.equal(422);
    const id = await pair('+4915100000006');
    const connected = await connect({ accountId: id });
    expect([connected.status, connected.body.code]).to.deep.equal([409, 'account_already_connected']);
    expect((await connect({ accountId: 'acc_01jd4a7c9e1g3j5m7p9r1t3v5x' })).status).to.equal(404);
    const other = await newOwner(app.api);
    expect((await app.api.get(`/accounts/${id}/qrchat/qr`, { token: other.key })).status).to.equal(404);
    const forged = await app.api.post('/webhooks/qrchat', { body: { from: '4917000000000', text: 'forged' } });
    expect(forged.status).to.be.oneOf([400, 404]);
    expect(await app.services.db('messages').where({ text: 'forged' })).to.have.length(0);
  });

  it('a worker takes over a session whose holder is gone, from its stored keys (the old socket is replaced)', async () => {
    const id = await pair('+4915100000007');
    await app.services.db('qrchatSessions').where({ accountId: id }).update({ leaseExpiresAt: new Date(Date.now() - 1000) });
    const other = new QrchatSessions(app.services, app.services.platforms.get('qrchat')!);
    try {
      await other.sweep();
      const row = await until(() => app.services.db('qrchatSessions').where({ accountId: id }).first(), (r) => r.heldBy === other.holder && r.state === 'open');
      expect(row.authCiphertext).to.be.a('string');
      await hook(['message.received', 'account.needs_reconnection']);
      expect((await person('messages', { to: '+4915100000007', text: 'still there?' })).body.delivered).to.equal(1);
      const [request] = await receiver.waitFor(1);
      expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, text: 'still there?' });
      expect((await app.api.get(`/accounts/${id}`, { token: owner.key })).body.status).to.equal('connected');
    } finally {
      other.stop();
    }
  });

  it('a pairing window that ended with nobody holding it leaves the account pending with pairing_expired', async () => {
    const started = await connect();
    await stateOf(started.body.id, 'awaiting_scan');
    await app.services.db('qrchatSessions').where({ accountId: started.body.id })
      .update({ pairingExpiresAt: new Date(Date.now() - 1000), leaseExpiresAt: new Date(Date.now() - 1000) });
    const other = new QrchatSessions(app.services, app.services.platforms.get('qrchat')!);
    try {
      await other.sweep();
    } finally {
      other.stop();
    }
    expect((await qrOf(started.body.id)).body).to.include({ state: 'idle', qr: null, pairingExpiresAt: null });
    expect((await app.api.get(`/accounts/${started.body.id}`, { token: owner.key })).body).to.include({ status: 'pending', statusReason: 'pairing_expired' });
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
      closed: (reason: CloseReason) => log.push([`${tag}closed:${reason}`, Date.now() - started]),
    });
    network.connect(null, events(''), async (creds) => { saved = creds; });
    await until(async () => log.length, (n) => n >= 4, 3000);
    expect(log.map(([name]) => name)).to.deep.equal(['qr', 'qr', 'qr', 'closed:qr_timeout']);
    expect(log[0]![2]).to.be.within(110, 120);
    expect(log[1]![2]).to.be.within(30, 40);
    log.length = 0;
    const second = network.connect(null, events(''), async (creds) => { saved = creds; });
    await until(async () => second.qr, (qr) => qr !== null, 3000);
    expect(await network.scan(second.qr!.text, PHONE, 'Shop')).to.have.property('id');
    expect(log.map(([name]) => name)).to.deep.equal(['qr', 'pairing', 'closed:restart_required']);
    network.connect(saved as never, events('resumed-'), async () => {});
    await until(async () => log.length, (n) => n >= 4, 3000);
    expect(network.logOut(PHONE)).to.equal(1);
    expect(log.slice(3).map(([name]) => name)).to.deep.equal(['resumed-open', 'resumed-closed:logged_out']);
    network.connect(saved as never, events('again-'), async () => {});
    await until(async () => log.length, (n) => n >= 6, 3000);
    expect(log.slice(5).map(([name]) => name)).to.deep.equal(['again-closed:logged_out']);
  });
});
