import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import type { SimulatedPhone } from '../../support/sandbox/wallet.js';
import { until } from '../../support/wait.js';

describeApi('wallet — updates reach phones', (t) => {
  const { wallet } = t.sandbox;

  async function passOnPhone(body: Record<string, unknown> = {}) {
    const program = await wallet.connectedProgram(t.owner);
    const created = await t.app.api.post('/wallet/passes', {
      token: t.owner.key,
      body: { programId: program.programId, balance: 10, ...body },
    });
    expect(created.status, created.text).to.equal(201);
    const phone = await wallet.newPhone();
    await wallet.addPass(phone, created.body.downloadUrl);
    return { ...program, pass: created.body, phone };
  }

  const heldOn = async (phone: SimulatedPhone) => (await wallet.phone(phone.id)).passes[0]!;
  const balanceShown = (passJson: Record<string, any>) => passJson.storeCard.headerFields[0].value as string;

  const ws = (path: string, init: RequestInit = {}) => fetch(`${t.app.url}/wallet/ws${path}`, init);

  it('a transaction reaches a registered phone: push, changed serials, the new signed pass, its notice', async () => {
    const { pass, phone } = await passOnPhone();
    expect(balanceShown((await heldOn(phone)).passJson)).to.equal('10');
    await t.app.api.post(`/wallet/passes/${pass.id}/transactions`, { token: t.owner.key, body: { type: 'earn', points: 5 } });
    const held = await until(() => heldOn(phone), { done: (shown) => shown.updates === 1, what: 'the phone to fetch the updated pass' });
    expect(balanceShown(held.passJson)).to.equal('15');
    expect(held.notices).to.deep.equal(['You now have 15 points.']);
    expect((await wallet.phone(phone.id)).errors).to.deep.equal([]);
  });

  it('a changed design reaches the phone too, with no event', async () => {
    const { programId, phone } = await passOnPhone();
    await t.app.api.patch(`/wallet/programs/${programId}`, { token: t.owner.key, body: { logoText: 'New look' } });
    const held = await until(() => heldOn(phone), { done: (shown) => shown.updates === 1, what: 'the phone to fetch the redesigned pass' });
    expect(held.passJson.logoText).to.equal('New look');
  });

  it('a deleted pass reaches the phone void, still signed', async () => {
    const { pass, phone } = await passOnPhone();
    await t.app.api.delete(`/wallet/passes/${pass.id}`, { token: t.owner.key });
    const held = await until(() => heldOn(phone), { done: (shown) => shown.updates === 1, what: 'the phone to fetch the voided pass' });
    expect(held.passJson.voided).to.equal(true);
  });

  it('removes a device whose token the push service no longer knows (410 Unregistered)', async () => {
    const { pass, phone, passTypeIdentifier } = await passOnPhone();
    await wallet.leave(phone);
    await t.app.api.post(`/wallet/passes/${pass.id}/transactions`, { token: t.owner.key, body: { type: 'earn', points: 1 } });
    await until(() => t.app.services.db('walletRegistrations').where({ passId: pass.id }), {
      done: (rows) => rows.length === 0,
      what: 'the registration of the device that left to be removed',
    });
    const answered = (await wallet.pushesAnswered()).filter((push) => push.token === phone.pushToken);
    expect(answered.map((push) => [push.status, push.reason, push.topic])).to.deep.equal([[410, 'Unregistered', passTypeIdentifier]]);
    expect(await t.app.services.db('walletPushes').where({ pushToken: phone.pushToken })).to.have.length(0);
  });

  it('retries a push the service throttled (429), and the phone gets the update', async () => {
    const { pass, phone } = await passOnPhone();
    await wallet.failNextPush(429, 'TooManyRequests');
    await t.app.api.post(`/wallet/passes/${pass.id}/transactions`, { token: t.owner.key, body: { type: 'redeem', points: 4 } });
    const held = await until(() => heldOn(phone), {
      done: (shown) => shown.updates === 1,
      what: 'the phone to get the update after the retry',
    });
    expect(balanceShown(held.passJson)).to.equal('6');
    const answered = (await wallet.pushesAnswered()).filter((push) => push.token === phone.pushToken).map((push) => push.status);
    expect(answered).to.deep.equal([429, 200]);
  });

  describe('the pass web service', () => {
    it('refuses a device without the pass’s token (401) and a body with members it does not know (400), answers 200 for a repeated registration', async () => {
      const { pass, phone, passTypeIdentifier } = await passOnPhone();
      const path = `/v1/devices/${phone.libraryIdentifier}/registrations/${passTypeIdentifier}/${pass.serialNumber}`;
      const body = JSON.stringify({ pushToken: phone.pushToken });
      const headers = { 'content-type': 'application/json' };
      const anonymous = await t.app.api.post(`/wallet/ws${path}`, { rawBody: body, headers });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.code).to.equal('wallet_pass_auth_failed');
      const wrong = await t.app.api.post(`/wallet/ws${path}`, {
        rawBody: body,
        headers: { ...headers, authorization: 'ApplePass not-the-token-of-this-pass' },
      });
      expect(wrong.status).to.equal(401);
      const token = (await heldOn(phone)).passJson.authenticationToken as string;
      const again = await t.app.api.post(`/wallet/ws${path}`, {
        rawBody: body,
        headers: { ...headers, authorization: `ApplePass ${token}` },
      });
      expect(again.status).to.equal(200);
      const extra = await t.app.api.post(`/wallet/ws${path}`, {
        rawBody: JSON.stringify({ pushToken: phone.pushToken, extra: true }),
        headers: { ...headers, authorization: `ApplePass ${token}` },
      });
      expect([extra.status, extra.body.code]).to.deep.equal([400, 'validation_failed']);
    });

    it('lists what changed since a tag (204 when nothing), and answers 304 to the device’s own version', async () => {
      const { pass, phone, passTypeIdentifier } = await passOnPhone();
      const updates = await t.app.api.get(`/wallet/ws/v1/devices/${phone.libraryIdentifier}/registrations/${passTypeIdentifier}`);
      expect(updates.status).to.equal(200);
      expect(updates.body.serialNumbers).to.deep.equal([pass.serialNumber]);
      const since = await t.app.api.get(
        `/wallet/ws/v1/devices/${phone.libraryIdentifier}/registrations/${passTypeIdentifier}?passesUpdatedSince=${updates.body.lastUpdated}`,
      );
      expect(since.status).to.equal(204);
      const held = await heldOn(phone);
      const auth = { authorization: `ApplePass ${held.passJson.authenticationToken}` };
      const notModified = await ws(`/v1/passes/${passTypeIdentifier}/${pass.serialNumber}`, {
        headers: { ...auth, 'if-modified-since': held.lastModified! },
      });
      expect(notModified.status).to.equal(304);
      const latest = await ws(`/v1/passes/${passTypeIdentifier}/${pass.serialNumber}`, { headers: auth });
      expect(latest.status).to.equal(200);
      expect(latest.headers.get('content-type')).to.equal('application/vnd.apple.pkpass');
      expect(latest.headers.get('last-modified')).to.equal(held.lastModified);
    });

    it('stops pushing to a device that unregistered, and takes the log (but not members it does not know)', async () => {
      const { pass, phone, passTypeIdentifier } = await passOnPhone();
      expect(await wallet.removePass(phone, passTypeIdentifier, pass.serialNumber)).to.equal(200);
      expect(await t.app.services.db('walletRegistrations').where({ passId: pass.id })).to.have.length(0);
      const log = await t.app.api.post('/wallet/ws/v1/log', { body: { logs: ['a pass did not verify'] } });
      expect(log.status).to.equal(200);
      const extra = await t.app.api.post('/wallet/ws/v1/log', { body: { logs: ['a pass did not verify'], extra: true } });
      expect([extra.status, extra.body.code]).to.deep.equal([400, 'validation_failed']);
    });
  });
});
