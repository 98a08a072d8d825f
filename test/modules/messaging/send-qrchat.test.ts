import { expect } from 'chai';
import { QrchatSessions } from '../../../src/modules/connect/qrchat-sessions.js';
import { describeApi } from '../../support/harness.js';
import { pairNumber } from '../../support/sandbox/qrchat.js';
import { until } from '../../support/wait.js';
import { uploadMedia, uploadPhoto } from '../publishing/support.js';
import { usageSettings, usageWhen } from '../usage/support.js';

const SAM = '+4917000000001';

describeApi('sending messages — qrchat', (t) => {
  const { qrchat } = t.sandbox;
  const send = (accountId: string, body: object, headers: Record<string, string> = {}) =>
    t.app.api.post(`/accounts/${accountId}/messages`, { token: t.owner.key, body, headers });
  const chatapp = (accountId: string, body: object) =>
    t.app.api.post(`/accounts/${accountId}/chatapp/send`, { token: t.owner.key, body: { to: SAM, ...body } });
  const message = (accountId: string, id: string) => t.app.api.get(`/accounts/${accountId}/messages/${id}`, { token: t.owner.key });

  it("sends a text from the paired number: Sam's phone shows it, the conversation keeps it; receipts move its status", async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000101');
    const sent = await send(accountId, { recipientId: SAM, text: 'Your table is ready.' });
    expect(sent.status, sent.text).to.equal(201);
    const [stored] = sent.body.data;
    expect(stored).to.include({ direction: 'out', type: 'text', text: 'Your table is ready.', platform: 'qrchat' });
    expect(stored.statusHistory[0].status).to.equal('sent');
    expect(stored.platformMessageId).to.match(/^3EB0[0-9A-F]{16}$/);
    const shown = await qrchat.onPlatform(SAM);
    expect(shown.filter((m) => m.from === '4915100000101').map((m) => [m.id, m.kind, m.text])).to.deep.equal([
      [stored.platformMessageId, 'text', 'Your table is ready.'],
    ]);
    const conversation = await t.app.api.get(`/accounts/${accountId}/conversations/${stored.conversationId}`, { token: t.owner.key });
    expect(conversation.body.messages.data.map((m: { text: string }) => m.text)).to.deep.equal(['Your table is ready.']);

    await until(() => message(accountId, stored.id), { done: (read) => read.body.status === 'delivered', what: 'the delivery receipt' });
    expect(await qrchat.read(SAM, '+4915100000101')).to.equal(1);
    const read = await until(() => message(accountId, stored.id), { done: (got) => got.body.status === 'read', what: 'the read receipt' });
    expect(read.body.statusHistory.map((entry: { status: string }) => entry.status)).to.deep.equal(['sent', 'delivered', 'read']);
  });

  it("sends files one message each, the text as the first one's caption", async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000102');
    const media = [
      await uploadPhoto(t.app, t.owner),
      await uploadMedia(t.app, t.owner, Buffer.from('%PDF-1.4\n%%EOF\n'), 'menu.pdf', 'application/pdf'),
    ];
    const sent = await send(accountId, { recipientId: SAM, text: 'Our menu', mediaIds: media });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data.map((m: { type: string; text: string | null }) => [m.type, m.text])).to.deep.equal([
      ['image', 'Our menu'],
      ['document', null],
    ]);
    const shown = (await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000102');
    expect(shown.map((m) => [m.kind, m.text, m.media?.mimeType])).to.deep.equal([
      ['image', 'Our menu', 'image/png'],
      ['document', null, 'application/pdf'],
    ]);
    expect(shown.map((m) => m.id)).to.deep.equal(sent.body.data.map((m: { platformMessageId: string }) => m.platformMessageId));
  });

  it('chatapp/send: text, image by link, audio and a reaction; templates and buttons refused naming why', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000103');
    const text = await chatapp(accountId, { type: 'text', text: { body: 'Hello Sam' } });
    expect(text.status, text.text).to.equal(201);
    const image = await chatapp(accountId, { type: 'image', image: { link: 'https://example.com/cup.png', caption: 'A cup' } });
    expect(image.status, image.text).to.equal(201);
    const audio = await chatapp(accountId, { type: 'audio', audio: { link: 'https://example.com/hi.ogg' } });
    expect(audio.status, audio.text).to.equal(201);
    const reaction = await chatapp(accountId, { type: 'reaction', reaction: { messageId: text.body.platformMessageId, emoji: '👍' } });
    expect(reaction.status, reaction.text).to.equal(201);
    const shown = (await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000103');
    expect(shown.map((m) => [m.kind, m.text, m.media?.url ?? null, m.reactTo])).to.deep.equal([
      ['text', 'Hello Sam', null, null],
      ['image', 'A cup', 'https://example.com/cup.png', null],
      ['audio', null, 'https://example.com/hi.ogg', null],
      ['reaction', '👍', null, text.body.platformMessageId],
    ]);

    const template = await chatapp(accountId, { type: 'template', template: { name: 'order_shipped', language: 'en_US' } });
    expect(template.status).to.equal(422);
    expect(template.body.code).to.equal('account_platform_unsupported');
    expect(template.body.detail).to.match(/template messages.*cloud API/);
    const buttons = await chatapp(accountId, {
      type: 'interactive',
      interactive: { body: 'Table?', buttons: [{ id: 'y', title: 'Yes' }] },
    });
    expect(buttons.status).to.equal(422);
    expect(buttons.body.detail).to.match(/interactive messages/);
    expect((await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000103')).to.have.length(4);
  });

  it('a retried request with the same Idempotency-Key sends once and answers the same message', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000104');
    const body = { recipientId: SAM, text: 'Only once' };
    const first = await send(accountId, body, { 'Idempotency-Key': 'qr-once' });
    const again = await send(accountId, body, { 'Idempotency-Key': 'qr-once' });
    expect(first.status, first.text).to.equal(201);
    expect(again.status, again.text).to.equal(201);
    expect(again.body.data[0].id).to.equal(first.body.data[0].id);
    expect((await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000104').map((m) => m.text)).to.deep.equal(['Only once']);
  });

  it('an account whose phone unlinked the device: 409 account_not_connected saying to pair it again, nothing sent', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000105');
    expect(await qrchat.removeApp('+4915100000105')).to.equal(1);
    await until(() => t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key }), {
      done: (read) => read.body.status === 'needs_reconnection',
      what: 'the account to need pairing again',
    });
    for (const refused of [
      await send(accountId, { recipientId: SAM, text: 'Hello?' }),
      await chatapp(accountId, { type: 'text', text: { body: 'Hello?' } }),
    ]) {
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('account_not_connected');
      expect(refused.body.detail).to.match(/Pair it again/);
    }
    expect((await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000105')).to.deep.equal([]);
  });

  it('a message queued when the phone unlinks the device ends failed, saying to pair again', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000108');
    const sessions = () => t.app.services.db('qrchatSessions').where({ accountId });
    await sessions().update({ heldBy: 'a-worker-that-crashed', leaseExpiresAt: new Date(Date.now() + 60_000) });
    const queued = await send(accountId, { recipientId: SAM, text: 'Never leaves' });
    expect(queued.status, queued.text).to.equal(202);
    expect(await qrchat.removeApp('+4915100000108')).to.equal(1);
    // The worker that takes the session over learns from the chat app that the device is gone.
    await sessions().update({ leaseExpiresAt: new Date(Date.now() - 1000) });
    const other = new QrchatSessions(t.app.services, t.app.services.platforms.get('qrchat')!);
    try {
      await other.sweep();
      const failed = await until(() => message(accountId, queued.body.data[0].id), {
        done: (read) => read.body.status === 'failed',
        what: 'the queued message to fail',
      });
      expect(failed.body.error.code).to.equal('session_logged_out');
      expect(failed.body.error.message).to.match(/Pair the account again/);
      expect((await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body.status).to.equal('needs_reconnection');
      expect((await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000108')).to.deep.equal([]);
    } finally {
      await other.stop();
    }
  });

  it('a worker that died holding the session: 202 pending; the worker that takes it over sends it, shown once', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000106');
    const sessions = () => t.app.services.db('qrchatSessions').where({ accountId });
    // The holder died: the lease still runs, nobody sends.
    await sessions().update({ heldBy: 'a-worker-that-crashed', leaseExpiresAt: new Date(Date.now() + 60_000) });
    const body = { recipientId: SAM, text: 'Sent after the restart' };
    const queued = await send(accountId, body, { 'Idempotency-Key': 'qr-crash' });
    expect(queued.status, queued.text).to.equal(202);
    const [pending] = queued.body.data;
    expect(pending).to.include({ status: 'pending', text: 'Sent after the restart' });
    expect(pending.statusHistory).to.deep.equal([]);

    // It had sent it on the socket and died before recording so: sent again with its id, the phone shows it once.
    const row = await t.app.services.db('qrchatSends').where({ accountId }).first();
    qrchat.network.relay('4915100000106', row.message);
    await sessions().update({ leaseExpiresAt: new Date(Date.now() - 1000) });
    const other = new QrchatSessions(t.app.services, t.app.services.platforms.get('qrchat')!);
    try {
      await other.sweep();
      const sent = await until(
        async () => {
          await other.drain();
          return message(accountId, pending.id);
        },
        {
          done: (read) => read.body.statusHistory.some((entry: { status: string }) => entry.status === 'sent'),
          what: 'the queued message to be sent',
          timeoutMs: 20_000,
        },
      );
      expect(sent.body.platformMessageId).to.equal(pending.platformMessageId);
      // The key's answer is kept as given: a retry is told the same, and sends nothing more.
      const retried = await send(accountId, body, { 'Idempotency-Key': 'qr-crash' });
      expect(retried.status, retried.text).to.equal(202);
      expect(retried.body.data[0].id).to.equal(pending.id);
      expect((await qrchat.onPlatform(SAM)).filter((m) => m.from === '4915100000106').map((m) => m.text)).to.deep.equal([
        'Sent after the restart',
      ]);
    } finally {
      await other.stop();
    }
  });
});

describeApi('sending messages — qrchat, the messages usage', { settings: usageSettings() }, (t) => {
  it('counts each message queued once; a replay with the same key counts nothing', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000107');
    const request = { token: t.owner.key, body: { recipientId: SAM, text: 'Counted', mediaIds: [await uploadPhoto(t.app, t.owner)] } };
    const headers = { 'Idempotency-Key': 'qr-usage' };
    expect((await t.app.api.post(`/accounts/${accountId}/messages`, { ...request, headers })).status).to.equal(201);
    expect((await t.app.api.post(`/accounts/${accountId}/messages`, { ...request, headers })).status).to.equal(201);
    const usage = await usageWhen(t.app, t.owner.key, (u) => u.usage.messages.used >= 1, `?profileId=${t.owner.profileId}`);
    expect(usage.usage.messages.used).to.equal(1);
  });
});
