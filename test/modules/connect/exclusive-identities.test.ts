import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { pairNumber, qrInState } from '../../support/sandbox/qrchat.js';
import { connectPages, pendingConnection } from '../../support/sandbox/social-network.js';
import { quiescent, until } from '../../support/wait.js';

/** Messages stored for an account, as its owner lists them in its conversations. */
async function storedTexts(t: { app: { services: { db: any } } }, accountId: string): Promise<string[]> {
  const rows = await t.app.services.db('messages').where({ accountId, direction: 'in' }).orderBy('createdAt');
  return rows.map((row: { text: string }) => row.text);
}

describeApi('connect — an identity whose events go to one place belongs to one owner', (t) => {
  const { botchat, chatappCloud, qrchat, socialNetwork } = t.sandbox;
  const connectBot = (owner: TestOwner, botToken: string, profileId = owner.profileId) =>
    t.app.api.post('/connect/botchat', { token: owner.key, body: { profileId, botToken } });

  it("connectBotchat — another owner's bot is refused 409 account_connected_elsewhere, and its messages still reach the first owner", async () => {
    const { token } = await botchat.newBot('Orders');
    const first = await connectBot(t.owner, token);
    expect(first.status).to.equal(201);
    const other = await newOwner(t.app.api);
    const taken = await connectBot(other, token);
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('account_connected_elsewhere');
    expect((await t.app.api.get('/accounts', { token: other.key })).body.data).to.deep.equal([]);
    expect((await botchat.sendMessage(token, 'still yours?')).webhookStatus).to.equal(200);
    await quiescent(t.app);
    expect(await storedTexts(t, first.body.id)).to.deep.equal(['still yours?']);
    // Once the first owner disconnects it, the bot is free for anyone.
    expect((await t.app.api.delete(`/accounts/${first.body.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await connectBot(other, token)).status).to.equal(201);
  });

  it("a bot of another profile of the owner is refused 409 before its webhook moves: that profile's account keeps its messages", async () => {
    const { token } = await botchat.newBot('Orders');
    const first = await connectBot(t.owner, token);
    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const moved = await connectBot(t.owner, token, second.body.id);
    expect(moved.status).to.equal(409);
    expect(moved.body.code).to.equal('account_already_connected');
    expect((await botchat.sendMessage(token, 'which profile?')).webhookStatus).to.equal(200);
    await quiescent(t.app);
    expect(await storedTexts(t, first.body.id)).to.deep.equal(['which profile?']);
  });

  it('two owners connecting one bot at the same moment: one gets it, the other 409, and the bot messages the one who got it', async () => {
    const { token } = await botchat.newBot('Orders');
    const owners = [t.owner, await newOwner(t.app.api), await newOwner(t.app.api)];
    const answers = await Promise.all(owners.map((owner) => connectBot(owner, token)));
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([201, 409, 409]);
    const winner = answers.find((answer) => answer.status === 201)!;
    expect((await botchat.sendMessage(token, 'who has me?')).webhookStatus).to.equal(200);
    await quiescent(t.app);
    expect(await storedTexts(t, winner.body.id)).to.deep.equal(['who has me?']);
  });

  it("connectChatappCloud — another owner's number is refused 409 account_connected_elsewhere; its messages stay with the first", async () => {
    const number = await chatappCloud.newNumber();
    const body = (owner: TestOwner) => ({
      profileId: owner.profileId,
      phoneNumberId: number.phoneNumberId,
      wabaId: number.wabaId,
      accessToken: number.accessToken,
    });
    const first = await t.app.api.post('/connect/chatapp-cloud', { token: t.owner.key, body: body(t.owner) });
    expect(first.status).to.equal(201);
    const other = await newOwner(t.app.api);
    const taken = await t.app.api.post('/connect/chatapp-cloud', { token: other.key, body: body(other) });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('account_connected_elsewhere');
    expect((await chatappCloud.sendMessage(number.phoneNumberId, 'a number for one')).webhookStatus).to.equal(200);
    await quiescent(t.app);
    expect(await storedTexts(t, first.body.id)).to.deep.equal(['a number for one']);
  });

  it('connectQrchat — a number another owner paired is not paired again: the new device is unlinked and the account says why', async () => {
    const phone = '+4915100000077';
    const first = await pairNumber(t.app, t.owner, phone);
    const other = await newOwner(t.app.api);
    const started = await t.app.api.post('/connect/qrchat', { token: other.key, body: { profileId: other.profileId } });
    const shown = await qrInState(t.app, other, started.body.id, 'awaiting_scan');
    expect((await qrchat.scan(shown.body.qr.text, phone)).status).to.equal(200);
    const refused = await until(() => t.app.api.get(`/accounts/${started.body.id}`, { token: other.key }), {
      done: (read) => read.body.statusReason === 'pairing_expired',
      what: 'the second pairing to be refused',
    });
    expect(refused.body).to.include({ status: 'pending', platformAccountId: null });
    const [health] = (await t.app.api.get('/accounts/health', { token: other.key })).body.data;
    expect(health.lastError.message).to.include('connected by another owner');
    await until(() => qrchat.linkedDevices(phone), { done: (devices) => devices.length === 1, what: 'one linked device' });
    expect(await qrchat.sendMessage({ to: phone, text: 'one device' })).to.equal(1);
    await until(() => storedTexts(t, first), { done: (texts) => texts.length === 1, what: 'the message stored for the first owner' });
    await quiescent(t.app);
    expect(await storedTexts(t, started.body.id)).to.deep.equal([]);
  });

  it('a page two owners manage is connected by both, and a message to it reaches both', async () => {
    const pat = await socialNetwork.newPerson({ pages: 1, adAccounts: 0 });
    const other = await newOwner(t.app.api);
    const accounts: string[] = [];
    for (const owner of [t.owner, other]) {
      const connected = await connectPages(t.app, owner, await pendingConnection(t.app, owner), pat.pageIds);
      expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
      accounts.push(connected.body.data[0].id);
    }
    expect((await socialNetwork.sendMessage(pat.pageIds[0]!, 'for both of you')).webhookStatus).to.equal(200);
    await quiescent(t.app);
    for (const accountId of accounts) expect(await storedTexts(t, accountId)).to.deep.equal(['for both of you']);
  });
});
