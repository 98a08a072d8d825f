import { expect } from 'chai';
import { writeKey } from '../../../src/modules/platform-writes/write-key.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent } from '../../support/wait.js';

/** A request as a handler sees it, with or without an Idempotency-Key. */
const request = (idempotencyKey?: string) => ({
  koa: { get: (name: string) => (name === 'Idempotency-Key' ? (idempotencyKey ?? '') : '') },
  requestId: 'req_01jf00000000000000000000ab',
});

describe('writeKey — the ledger key of a platform write an API request asks for', () => {
  it('is the Idempotency-Key under the kind, so a retry is the same write and a reply is not a hide', () => {
    expect(writeKey(request('k-1'), 'reply')).to.equal('reply:idem:k-1');
    expect(writeKey(request('k-1'), 'hide')).to.equal('hide:idem:k-1');
    expect(writeKey(request('k-1'), 'ad.create')).to.equal('ad.create:idem:k-1');
  });

  // Running services stored these; a retry answered by this version must find the same write (or event id).
  it('keeps the forms sends and calendar events had before it', () => {
    expect(writeKey(request('k-1'), 'message')).to.equal('key:k-1');
    expect(writeKey(request('k-1'), 'calendar.event')).to.equal('k-1');
  });

  it('is the request alone without an Idempotency-Key', () => {
    expect(writeKey(request(), 'message')).to.equal('message:request:req_01jf00000000000000000000ab');
    expect(writeKey(request(), 'reply')).to.equal('reply:request:req_01jf00000000000000000000ab');
  });
});

describeApi('writeKey — a write an earlier version recorded is found by a retry', (t) => {
  const { botchat } = t.sandbox;

  it('a send whose answer an earlier version lost (key:<Idempotency-Key>:0, outcome unknown) is not sent again', async () => {
    const bot = await connectBot(t.app, t.owner);
    await botchat.sendMessage(bot.token, 'Hi bot', { id: 4242, firstName: 'Ana' });
    await quiescent(t.app);
    const [conversation] = (await t.app.api.get(`/accounts/${bot.accountId}/conversations`, { token: t.owner.key })).body.data;
    const send = (key: string) =>
      t.app.api.post(`/accounts/${bot.accountId}/messages`, {
        token: t.owner.key,
        headers: { 'Idempotency-Key': key },
        body: { conversationId: conversation.id, text: 'Once' },
      });
    expect((await send('first')).status).to.equal(201);
    const { request } = await t.app.services.db('platformWrites').where({ accountId: bot.accountId }).first('request');
    // What an earlier version left when the platform's answer to its send under 'earlier' was lost.
    await t.app.services.db('platformWrites').insert({
      ownerId: t.owner.ownerId,
      accountId: bot.accountId,
      key: 'key:earlier:0',
      kind: 'message.send',
      request: JSON.stringify(request),
      status: 'unknown',
      startedAt: new Date(),
      settledAt: new Date(),
    });

    const retried = await send('earlier');
    expect(retried.status).to.equal(502);
    expect(retried.body.detail).to.match(/may or may not/);
    expect(await botchat.onPlatform(bot.token), 'sent once, by the first send').to.have.length(1);
  });
});
