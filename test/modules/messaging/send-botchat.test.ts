import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent } from '../../support/wait.js';
import { uploadPhoto, uploadVideo } from '../publishing/support.js';

describeApi('sending messages — botchat', (t) => {
  const { botchat } = t.sandbox;
  const ana = { id: 4242, firstName: 'Ana' };

  /** A connected bot Ana wrote to: its account, token and their conversation. */
  async function botAnaWroteTo() {
    const bot = await connectBot(t.app, t.owner);
    await botchat.sendMessage(bot.token, 'Hi bot', ana);
    await quiescent(t.app);
    const [conversation] = (await t.app.api.get(`/accounts/${bot.accountId}/conversations`, { token: t.owner.key })).body.data;
    return { ...bot, conversationId: conversation.id as string };
  }

  it('answers in a conversation: the platform has the text, the conversation the stored message, read', async () => {
    const bot = await botAnaWroteTo();
    const sent = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { conversationId: bot.conversationId, text: 'Hello Ana' },
    });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data).to.have.length(1);
    const [message] = sent.body.data;
    expect(message).to.include({ direction: 'out', type: 'text', text: 'Hello Ana', status: 'sent', conversationId: bot.conversationId });
    const onPlatform = await botchat.onPlatform(bot.token);
    expect(onPlatform.map((m) => [m.chatId, m.text])).to.deep.equal([[4242, 'Hello Ana']]);
    expect(message.platformMessageId).to.equal(`4242:${onPlatform[0]!.messageId}`);

    const read = await t.app.api.get(`/accounts/${bot.accountId}/messages/${message.id}`, { token: t.owner.key });
    expect(read.body).to.deep.equal(message);
    const conversation = await t.app.api.get(`/accounts/${bot.accountId}/conversations/${bot.conversationId}`, { token: t.owner.key });
    expect(conversation.body).to.include({ unreadCount: 0 });
    expect(conversation.body.messages.data.map((m: { text: string }) => m.text)).to.deep.equal(['Hello Ana', 'Hi bot']);
  });

  it('sends several photos and videos as one album, answering every message id; a text too long for a caption goes first', async () => {
    const bot = await botAnaWroteTo();
    const media = [await uploadPhoto(t.app, t.owner), await uploadVideo(t.app, t.owner), await uploadPhoto(t.app, t.owner, 'b.png')];
    const sent = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { recipientId: '4242', text: 'Our menu', mediaIds: media },
    });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data.map((m: { type: string }) => m.type)).to.deep.equal(['image', 'video', 'image']);
    expect(sent.body.data.map((m: { text: string | null }) => m.text)).to.deep.equal(['Our menu', null, null]);
    expect(sent.body.data.map((m: { attachments: Array<{ mediaId: string }> }) => m.attachments[0]!.mediaId)).to.deep.equal(media);
    const onPlatform = await botchat.onPlatform(bot.token);
    expect(onPlatform).to.have.length(3);
    expect(new Set(onPlatform.map((m) => m.mediaGroupId)).size, 'one album').to.equal(1);
    expect(sent.body.data.map((m: { platformMessageId: string }) => m.platformMessageId)).to.deep.equal(
      onPlatform.map((m) => `4242:${m.messageId}`),
    );

    const long = 'x'.repeat(1500);
    const withLongText = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { recipientId: '4242', text: long, mediaIds: [media[0]!] },
    });
    expect(withLongText.body.data.map((m: { type: string }) => m.type)).to.deep.equal(['text', 'image']);
  });

  it('a person who blocked the bot: 422 recipient_blocked naming the rule; the account stays connected', async () => {
    const bot = await botAnaWroteTo();
    await botchat.block(bot.token, ana.id);
    const refused = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { conversationId: bot.conversationId, text: 'Still there?' },
    });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('recipient_blocked');
    expect(refused.body.detail).to.match(/blocked by the user/);
    expect((await t.app.api.get(`/accounts/${bot.accountId}`, { token: t.owner.key })).body.status).to.equal('connected');
  });

  it('a chat the bot does not know: 422 recipient_not_found; a refusal no rule names: 422 platform_refused in the platform’s words', async () => {
    const bot = await botAnaWroteTo();
    const unknown = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { recipientId: '@no_such_channel', text: 'Hello' },
    });
    expect(unknown.status).to.equal(422);
    expect(unknown.body).to.include({ code: 'recipient_not_found', detail: 'The platform refused: Bad Request: chat not found' });
    await botchat.failNext(bot.token, [{ kind: 'bad_request', description: 'Bad Request: message is too long' }]);
    const refused = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: t.owner.key,
      body: { conversationId: bot.conversationId, text: 'Hello Ana' },
    });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ code: 'platform_refused', detail: 'The platform refused: Bad Request: message is too long' });
    expect(await botchat.onPlatform(bot.token)).to.deep.equal([]);
    expect((await t.app.api.get(`/accounts/${bot.accountId}`, { token: t.owner.key })).body.status).to.equal('connected');
  });

  it('refuses what the platform cannot do: a comment recipient, a tag, two recipients, an unknown media id', async () => {
    const bot = await botAnaWroteTo();
    const send = (body: Record<string, unknown>) => t.app.api.post(`/accounts/${bot.accountId}/messages`, { token: t.owner.key, body });
    expect((await send({ commentId: '1_2', text: 'hi' })).body.code).to.equal('validation_failed');
    expect((await send({ recipientId: '4242', text: 'hi', messagingTag: 'account_update' })).body.code).to.equal('validation_failed');
    expect((await send({ recipientId: '4242', conversationId: bot.conversationId, text: 'hi' })).body.code).to.equal('validation_failed');
    expect((await send({ recipientId: '4242' })).body.code).to.equal('validation_failed');
    expect((await send({ recipientId: '4242', mediaIds: ['media_01jd4g7h8j9k0m1n2p3q4r5s6t'] })).body.code).to.equal('media_not_found');
    expect(await botchat.onPlatform(bot.token)).to.deep.equal([]);
  });

  it('sends asked for at once: each stored once and its platform write settled with the platform’s ids', async () => {
    const bot = await botAnaWroteTo();
    const texts = Array.from({ length: 8 }, (_, n) => `At once ${n}`);
    const sent = await Promise.all(
      texts.map((text) =>
        t.app.api.post(`/accounts/${bot.accountId}/messages`, { token: t.owner.key, body: { conversationId: bot.conversationId, text } }),
      ),
    );
    expect(sent.map((answer) => answer.status)).to.deep.equal(texts.map(() => 201));
    const writes = (await t.app.services
      .db('platformWrites')
      .where({ accountId: bot.accountId, kind: 'message.send' })
      .select('status', 'result')) as Array<{ status: string; result: Array<{ platformMessageId: string }> | null }>;
    expect(writes.map((write) => write.status)).to.deep.equal(texts.map(() => 'succeeded'));
    expect(writes.map((write) => write.result?.[0]?.platformMessageId).sort()).to.deep.equal(
      sent.map((answer) => answer.body.data[0].platformMessageId as string).sort(),
    );
    const conversation = await t.app.api.get(`/accounts/${bot.accountId}/conversations/${bot.conversationId}?limit=100`, {
      token: t.owner.key,
    });
    expect(conversation.body.messages.data.map((m: { text: string }) => m.text).sort()).to.deep.equal([...texts, 'Hi bot'].sort());
  });

  it('a lost answer after the platform sent it: 502, and the same Idempotency-Key never sends again', async () => {
    const bot = await botAnaWroteTo();
    await botchat.failNext(bot.token, [{ kind: 'lost_answer' }]);
    const request = {
      token: t.owner.key,
      headers: { 'Idempotency-Key': 'lost-once' },
      body: { conversationId: bot.conversationId, text: 'Once' },
    };
    const first = await t.app.api.post(`/accounts/${bot.accountId}/messages`, request);
    expect(first.status).to.equal(502);
    expect(first.body.detail).to.match(/may or may not/);
    const again = await t.app.api.post(`/accounts/${bot.accountId}/messages`, request);
    expect(again.status).to.equal(502);
    expect(await botchat.onPlatform(bot.token)).to.have.length(1);
  });

  it('a retry with the same key after a refusal sends; a throttled bot answers 429 with Retry-After', async () => {
    const bot = await botAnaWroteTo();
    await botchat.failNext(bot.token, [{ kind: 'rate_limited', retryAfter: 7 }]);
    const request = {
      token: t.owner.key,
      headers: { 'Idempotency-Key': 'throttled' },
      body: { conversationId: bot.conversationId, text: 'Soon' },
    };
    const throttled = await t.app.api.post(`/accounts/${bot.accountId}/messages`, request);
    expect(throttled.status).to.equal(429);
    expect(throttled.body.code).to.equal('platform_rate_limited');
    expect(Number(throttled.headers.get('retry-after'))).to.be.within(6, 7);
    const sent = await t.app.api.post(`/accounts/${bot.accountId}/messages`, request);
    expect(sent.status).to.equal(201);
    expect(await botchat.onPlatform(bot.token)).to.have.length(1);
  });
});
