import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { connectNumber } from '../../support/sandbox/chatapp-cloud.js';
import { quiescent, until } from '../../support/wait.js';
import { uploadPhoto } from '../publishing/support.js';

describeApi('sending messages — chatapp-cloud', (t) => {
  const { chatappCloud } = t.sandbox;
  const ana = '4915112345678';

  /** A connected number Ana wrote to. */
  async function numberAnaWroteTo() {
    const connected = await connectNumber(t.app, t.owner);
    await chatappCloud.sendMessage(connected.number.phoneNumberId, 'Table for two tonight?', `+${ana}`);
    await quiescent(t.app);
    return connected;
  }
  /** Time passes for Ana's conversation: her last message is older, on the platform and in what we stored of it. */
  async function passHours(accountId: string, phoneNumberId: string, hours: number) {
    await chatappCloud.age(phoneNumberId, ana, hours);
    await t.app.services
      .db('messages')
      .where({ accountId, direction: 'in' })
      .update({ sentAt: t.app.services.db.raw('sent_at - make_interval(hours => ?)', [hours]) });
  }
  const hookMessages = () =>
    t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['message.received'] } });
  const chatapp = (accountId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.api.post(`/accounts/${accountId}/chatapp/send`, { token: t.owner.key, body, headers });
  const read = async (accountId: string, id: string) =>
    (await t.app.api.get(`/accounts/${accountId}/messages/${id}`, { token: t.owner.key })).body;

  it('sendMessage answers Ana within the window: text, then the photo; to a number as written with spaces', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    const photo = await uploadPhoto(t.app, t.owner);
    const sent = await t.app.api.post(`/accounts/${accountId}/messages`, {
      token: t.owner.key,
      body: { recipientId: ana, text: 'Yes, 8 pm.', mediaIds: [photo] },
    });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data.map((m: { type: string }) => m.type)).to.deep.equal(['text', 'image']);
    expect(sent.body.data[1].attachments.map((a: { type: string; mediaId: string }) => [a.type, a.mediaId])).to.deep.equal([
      ['image', photo],
    ]);
    expect((await read(accountId, sent.body.data[1].id)).attachments).to.deep.equal(sent.body.data[1].attachments);
    const onPlatform = await chatappCloud.onPlatform(number.phoneNumberId);
    expect(onPlatform.map((m) => [m.to, m.type])).to.deep.equal([
      [ana, 'text'],
      [ana, 'image'],
    ]);
    const conversations = (await t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key })).body.data;
    expect(conversations, 'the answer is in the conversation Ana started').to.have.length(1);
  });

  it('chatapp/send: text, buttons, a reaction and media; each stored with the wamid, an uploaded image listed as its attachment', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    const photo = await uploadPhoto(t.app, t.owner);
    const to = '+49 151 12345678'.replace(/ /g, '');
    const text = await chatapp(accountId, { to, type: 'text', text: { body: 'See you at 8.' } });
    expect(text.status, text.text).to.equal(201);
    expect(text.body).to.include({ type: 'text', text: 'See you at 8.', status: 'sent' });
    const buttons = await chatapp(accountId, {
      to,
      type: 'interactive',
      interactive: {
        body: 'How many?',
        buttons: [
          { id: '2', title: 'Two' },
          { id: '4', title: 'Four' },
        ],
      },
    });
    expect(buttons.status, buttons.text).to.equal(201);
    const reaction = await chatapp(accountId, { to, type: 'reaction', reaction: { messageId: text.body.platformMessageId, emoji: '👍' } });
    expect(reaction.status, reaction.text).to.equal(201);
    const image = await chatapp(accountId, { to, type: 'image', image: { mediaId: photo, caption: 'Our terrace' } });
    expect(image.body).to.include({ type: 'image', text: 'Our terrace' });
    expect(image.body.attachments.map((a: { type: string; mediaId: string }) => [a.type, a.mediaId])).to.deep.equal([['image', photo]]);
    expect((await read(accountId, image.body.id)).attachments).to.deep.equal(image.body.attachments);
    const onPlatform = await chatappCloud.onPlatform(number.phoneNumberId);
    expect(onPlatform.map((m) => m.type)).to.deep.equal(['text', 'interactive', 'reaction', 'image']);
    expect(onPlatform[1]!.content.action.buttons).to.have.length(2);
    expect(onPlatform.map((m) => m.wamid)).to.deep.equal([text, buttons, reaction, image].map((r) => r.body.platformMessageId));
  });

  it('outside the window only templates go: free-form is 422 before any call; a template is checked against its placeholders', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    await passHours(accountId, number.phoneNumberId, 25);
    const closed = await chatapp(accountId, { to: ana, type: 'text', text: { body: 'Hello again' } });
    expect(closed.status).to.equal(422);
    expect(closed.body.code).to.equal('messaging_window_closed');
    const stranger = await chatapp(accountId, { to: '+14155550123', type: 'text', text: { body: 'Hi' } });
    expect(stranger.body.code).to.equal('messaging_window_closed');

    const template = (parameters: string[]) => ({
      to: ana,
      type: 'template',
      template: {
        name: 'order_shipped',
        language: 'en_US',
        components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }],
      },
    });
    const short = await chatapp(accountId, template(['Ana']));
    expect(short.status).to.equal(422);
    expect(short.body.code).to.equal('template_invalid');
    expect(short.body.detail).to.match(/2 placeholders; 1 parameters/);
    const unknown = await chatapp(accountId, { ...template(['Ana', 'A-1']), template: { name: 'spring_sale', language: 'en_US' } });
    expect(unknown.body.code).to.equal('template_invalid');
    expect(await chatappCloud.onPlatform(number.phoneNumberId)).to.deep.equal([]);

    const sent = await chatapp(accountId, template(['Ana', 'A-10452']));
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body).to.include({ type: 'template', text: 'Hi Ana, your order A-10452 is on its way.' });
  });

  it('an invalid number is 400; a number that cannot receive fails after the 200 with the platform reason', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    expect((await chatapp(accountId, { to: '+4900000', type: 'text', text: { body: 'x' } })).body.code).to.equal('validation_failed');
    await chatappCloud.makeUndeliverable(number.phoneNumberId, ana);
    const sent = await chatapp(accountId, { to: ana, type: 'text', text: { body: 'Are you there?' } });
    expect(sent.status).to.equal(201);
    const failed = await until(() => read(accountId, sent.body.id), { done: (m) => m.status === 'failed', what: 'the late failure' });
    expect(failed.error).to.deep.equal({ code: '131026', message: 'Message undeliverable' });
    expect(failed.statusHistory.map((h: { status: string }) => h.status)).to.deep.equal(['sent', 'failed']);
  });

  it('statuses out of order and twice: read stays read; history keeps each once', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    const sent = await chatapp(accountId, { to: ana, type: 'text', text: { body: 'Confirmed.' } });
    const wamid = sent.body.platformMessageId;
    await chatappCloud.reportStatus(number.phoneNumberId, wamid, 'read');
    await chatappCloud.reportStatus(number.phoneNumberId, wamid, 'delivered');
    await chatappCloud.reportStatus(number.phoneNumberId, wamid, 'delivered');
    await quiescent(t.app);
    const message = await read(accountId, sent.body.id);
    expect(message.status).to.equal('read');
    expect(message.statusHistory.map((h: { status: string }) => h.status)).to.deep.equal(['sent', 'delivered', 'read']);
  });

  it('a status that arrives before the send is stored still shows on the message', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    await chatappCloud.failNext(number.phoneNumberId, [{ kind: 'status_first', status: 'delivered' }]);
    const sent = await chatapp(accountId, { to: ana, type: 'text', text: { body: 'Quick.' } });
    expect(sent.status).to.equal(201);
    const message = await until(() => read(accountId, sent.body.id), { done: (m) => m.status === 'delivered', what: 'delivered' });
    expect(message.statusHistory.map((h: { status: string }) => h.status)).to.deep.equal(['sent', 'delivered']);
    await quiescent(t.app);
    expect(await t.app.services.db('earlyReceipts').where({ accountId }), 'nothing left waiting').to.deep.equal([]);
  });

  it('a sender known only by their business-scoped id: stored without a phone, and answered by that id', async () => {
    const { accountId, number } = await connectNumber(t.app, t.owner);
    await hookMessages();
    await chatappCloud.sendAsUserId(number.phoneNumberId, 'US.13491208655302741918', 'Hidden number here');
    const [delivery] = await t.inbox.waitFor(1);
    expect(JSON.parse(delivery!.rawBody).data).to.include({ from: 'US.13491208655302741918', text: 'Hidden number here' });
    const [conversation] = (await t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key })).body.data;
    expect(conversation.participants[0]).to.include({ id: 'US.13491208655302741918', name: 'Kim', phone: null });
    const sent = await t.app.api.post(`/accounts/${accountId}/messages`, {
      token: t.owner.key,
      body: { conversationId: conversation.id, text: 'Hi Kim' },
    });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data[0].conversationId).to.equal(conversation.id);
    expect((await chatappCloud.onPlatform(number.phoneNumberId)).map((m) => m.to)).to.deep.equal(['US.13491208655302741918']);
  });

  it('a lost answer is never sent again under its key; throttling is 429', async () => {
    const { accountId, number } = await numberAnaWroteTo();
    await chatappCloud.failNext(number.phoneNumberId, [{ kind: 'lost_answer' }]);
    const body = { to: ana, type: 'text', text: { body: 'Once.' } };
    expect((await chatapp(accountId, body, { 'Idempotency-Key': 'wa-lost' })).status).to.equal(502);
    expect((await chatapp(accountId, body, { 'Idempotency-Key': 'wa-lost' })).status).to.equal(502);
    expect(await chatappCloud.onPlatform(number.phoneNumberId)).to.have.length(1);
    await chatappCloud.failNext(number.phoneNumberId, [{ kind: 'throttled' }]);
    const throttled = await chatapp(accountId, body);
    expect(throttled.status).to.equal(429);
    expect(throttled.body.code).to.equal('platform_rate_limited');
  });

  it('lists the approved templates with their placeholders, paged', async () => {
    const { accountId } = await connectNumber(t.app, t.owner);
    const first = await t.app.api.get(`/accounts/${accountId}/chatapp/templates?limit=1`, { token: t.owner.key });
    expect(first.status, first.text).to.equal(200);
    expect(first.body.data.map((x: { name: string }) => x.name)).to.deep.equal(['hello_world']);
    const next = await t.app.api.get(`/accounts/${accountId}/chatapp/templates?limit=5&cursor=${first.body.nextCursor}`, {
      token: t.owner.key,
    });
    expect(next.body.data).to.deep.equal([
      {
        name: 'order_shipped',
        language: 'en_US',
        status: 'approved',
        category: 'utility',
        components: [
          { type: 'body', text: 'Hi {{1}}, your order {{2}} is on its way.', parameterCount: 2 },
          { type: 'buttons', text: null, parameterCount: 0 },
        ],
      },
    ]);
    expect(next.body.nextCursor).to.equal(null);
  });

  itPagesThroughPlatform(t, 'listChatappTemplates', async (count) => {
    const { accountId, number } = await connectNumber(t.app, t.owner);
    const names = Array.from({ length: count }, (_, i) => `paged_${i}_${number.phoneNumberId}`);
    for (const name of names) {
      await chatappCloud.addTemplate(number.wabaId, {
        name,
        language: 'en_US',
        status: 'APPROVED',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hello.' }],
      });
    }
    return { path: `/accounts/${accountId}/chatapp/templates`, ids: names, idOf: (template) => template.name };
  });
});
