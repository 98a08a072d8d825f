import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';
import { uploadPhoto } from '../publishing/support.js';

describeApi('sending messages — social_network Messenger', (t) => {
  const { socialNetwork, messenger } = t.sandbox;
  const lena = '6734519027381945';

  /** A connected page Lena wrote to: its account, page and their conversation. */
  async function pageLenaWroteTo() {
    const page = await connectNewPage(t.app, t.owner);
    expect((await socialNetwork.sendMessage(page.pageId, 'Do you ship to Austria?', lena)).webhookStatus).to.equal(200);
    await quiescent(t.app);
    const [conversation] = (await t.app.api.get(`/accounts/${page.accountId}/conversations`, { token: t.owner.key })).body.data;
    return { ...page, conversationId: conversation.id as string };
  }
  const send = (accountId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.api.post(`/accounts/${accountId}/messages`, { token: t.owner.key, body, headers });

  it('answers within the window: text, then each file as a message of its own listing it as its attachment, every id answered', async () => {
    const page = await pageLenaWroteTo();
    const photo = await uploadPhoto(t.app, t.owner);
    const sent = await send(page.accountId, { conversationId: page.conversationId, text: 'Yes: 3-5 days.', mediaIds: [photo] });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data.map((m: { type: string }) => m.type)).to.deep.equal(['text', 'image']);
    const onPlatform = await messenger.onPlatform(page.pageId);
    expect(onPlatform.map((m) => [m.psid, m.text, m.attachment?.type ?? null])).to.deep.equal([
      [lena, 'Yes: 3-5 days.', null],
      [lena, null, 'image'],
    ]);
    expect(sent.body.data.map((m: { platformMessageId: string }) => m.platformMessageId)).to.deep.equal(onPlatform.map((m) => m.mid));
    const image = sent.body.data[1];
    expect(image.attachments.map((a: { type: string; mediaId: string }) => [a.type, a.mediaId])).to.deep.equal([['image', photo]]);
    const stored = await t.app.api.get(`/accounts/${page.accountId}/messages/${image.id}`, { token: t.owner.key });
    expect(stored.body.attachments).to.deep.equal(image.attachments);
  });

  it('to a person the page has no one by: 422 recipient_not_found with the platform’s words (not recipient_blocked); nothing sent', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const refused = await send(page.accountId, { recipientId: '9999000011112222', text: 'Hello?' });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('recipient_not_found');
    expect(refused.body.detail).to.include('No matching user found');
    expect(await messenger.onPlatform(page.pageId)).to.deep.equal([]);
    expect((await t.app.api.get(`/accounts/${page.accountId}`, { token: t.owner.key })).body.status).to.equal('connected');
  });

  it('outside the 24-hour window: 422 messaging_window_closed; a message tag allowed for it sends; human_agent only for 7 days', async () => {
    const page = await pageLenaWroteTo();
    await messenger.age(page.pageId, lena, 25);
    const closed = await send(page.accountId, { conversationId: page.conversationId, text: 'Still interested?' });
    expect(closed.status).to.equal(422);
    expect(closed.body.code).to.equal('messaging_window_closed');
    expect(closed.body.detail).to.match(/outside of allowed window/);
    const tagged = await send(page.accountId, {
      conversationId: page.conversationId,
      text: 'Your parcel left.',
      messagingTag: 'post_purchase_update',
    });
    expect(tagged.status, tagged.text).to.equal(201);
    expect((await messenger.onPlatform(page.pageId)).map((m) => m.tag)).to.deep.equal(['POST_PURCHASE_UPDATE']);
    const agent = await send(page.accountId, { conversationId: page.conversationId, text: 'Agent here.', messagingTag: 'human_agent' });
    expect(agent.status).to.equal(201);
    await messenger.age(page.pageId, lena, 24 * 7);
    const tooLate = await send(page.accountId, { conversationId: page.conversationId, text: 'Agent again.', messagingTag: 'human_agent' });
    expect(tooLate.body.code).to.equal('messaging_window_closed');
    expect(
      (await t.app.api.get(`/accounts/${page.accountId}`, { token: t.owner.key })).body.status,
      'a refusal is no lost permission',
    ).to.equal('connected');
  });

  it('answers a comment privately once: the conversation with its author appears; a second one and an old comment are refused', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const commentId = await messenger.newComment(page.pageId, lena);
    const sent = await send(page.accountId, { commentId, text: 'Thanks! Sent you the details.' });
    expect(sent.status, sent.text).to.equal(201);
    const conversations = (await t.app.api.get(`/accounts/${page.accountId}/conversations`, { token: t.owner.key })).body.data;
    expect(conversations.map((c: { platformConversationId: string }) => c.platformConversationId)).to.deep.equal([lena]);
    expect(sent.body.data[0].conversationId).to.equal(conversations[0].id);

    const again = await send(page.accountId, { commentId, text: 'And again.' });
    expect(again.status).to.equal(422);
    expect(again.body.code).to.equal('private_reply_already_sent');
    const old = await messenger.newComment(page.pageId, lena, 8);
    expect((await send(page.accountId, { commentId: old, text: 'Late.' })).body.code).to.equal('private_reply_window_closed');
    expect(await messenger.onPlatform(page.pageId)).to.have.length(1);
  });

  it('a lost answer after the page sent it: the same Idempotency-Key never sends it again', async () => {
    const page = await pageLenaWroteTo();
    await messenger.loseNextAnswer();
    const first = await send(page.accountId, { conversationId: page.conversationId, text: 'Once.' }, { 'Idempotency-Key': 'm-lost' });
    expect(first.status).to.equal(502);
    const again = await send(page.accountId, { conversationId: page.conversationId, text: 'Once.' }, { 'Idempotency-Key': 'm-lost' });
    expect(again.status).to.equal(502);
    expect(await messenger.onPlatform(page.pageId)).to.have.length(1);
  });

  it('a throttled page answers 429; an expired page token 409 account_not_connected', async () => {
    const page = await pageLenaWroteTo();
    await socialNetwork.failNextCall({
      code: 613,
      message: 'Calls to this api have exceeded the rate limit.',
      headers: { 'Retry-After': '30' },
    });
    const throttled = await send(page.accountId, { conversationId: page.conversationId, text: 'Hi' });
    expect(throttled.status).to.equal(429);
    await socialNetwork.failNextCall({ code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' });
    const expired = await send(page.accountId, { conversationId: page.conversationId, text: 'Hi' });
    expect(expired.status).to.equal(409);
    expect(expired.body.code).to.equal('account_not_connected');
    expect(await messenger.onPlatform(page.pageId)).to.deep.equal([]);
  });
});
