import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner } from '../../support/owners.js';
import { connectBot, type Writer } from '../../support/sandbox/botchat.js';
import { quiescent } from '../../support/wait.js';

describeApi('conversations — reading what people wrote', (t) => {
  const { botchat } = t.sandbox;
  const lena = { id: 77, firstName: 'Lena', username: 'lena_f' };

  /** A connected bot that people wrote to, once every message is stored: its account id. */
  async function botWithMessages(messages: Array<{ text: string; from?: Writer }>): Promise<string> {
    const bot = await connectBot(t.app, t.owner);
    for (const { text, from = lena } of messages) expect((await botchat.sendMessage(bot.token, text, from)).webhookStatus).to.equal(200);
    await quiescent(t.app);
    return bot.accountId;
  }

  it('listConversations and getConversation show the person, unread count and messages newest first', async () => {
    const accountId = await botWithMessages([{ text: 'first' }, { text: 'second' }, { text: 'third' }]);
    const listed = await t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key });
    expect(listed.status).to.equal(200);
    expect(listed.body.data).to.have.length(1);
    const [conversation] = listed.body.data;
    expect(conversation).to.include({
      platform: 'botchat',
      platformConversationId: '77',
      unreadCount: 3,
      title: 'Lena',
      canReplyUntil: null,
    });
    expect(conversation.participants[0]).to.deep.equal({ id: '77', name: 'Lena', username: 'lena_f', phone: null });
    expect(conversation.lastMessage).to.include({ direction: 'in', text: 'third' });
    const page = await t.app.api.get(`/accounts/${accountId}/conversations/${conversation.id}?limit=2`, { token: t.owner.key });
    expect(page.body.messages.data.map((m: { text: string }) => m.text)).to.deep.equal(['third', 'second']);
    const older = await t.app.api.get(
      `/accounts/${accountId}/conversations/${conversation.id}?limit=2&cursor=${page.body.messages.nextCursor}`,
      { token: t.owner.key },
    );
    expect(older.body.messages.data.map((m: { text: string }) => m.text)).to.deep.equal(['first']);
    expect((await t.app.api.get(`/accounts/${accountId}/conversations?unread=false`, { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  itPagesByKeyset(t, 'listConversations', async (count) => {
    const people = Array.from({ length: count }, (_, n) => ({ id: 100 + n, firstName: `Person ${n}` }));
    const accountId = await botWithMessages(people.map((from) => ({ text: `Hello from ${from.firstName}`, from })));
    const listed = await t.app.api.get(`/accounts/${accountId}/conversations?limit=100`, { token: t.owner.key });
    const byPerson = new Map(listed.body.data.map((c: { id: string; platformConversationId: string }) => [c.platformConversationId, c.id]));
    // Newest first: the person who wrote last comes first.
    return {
      path: `/accounts/${accountId}/conversations`,
      ids: people.map((person) => byPerson.get(String(person.id)) as string).reverse(),
    };
  });

  itPagesByKeyset(t, 'getConversation, its messages', async (count) => {
    const accountId = await botWithMessages(Array.from({ length: count }, (_, n) => ({ text: `message ${n}` })));
    const [conversation] = (await t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key })).body.data;
    const path = `/accounts/${accountId}/conversations/${conversation.id}`;
    const messages = (await t.app.api.get(`${path}?limit=100`, { token: t.owner.key })).body.messages.data as Array<{
      id: string;
      text: string;
    }>;
    expect(messages.map((message) => message.text)).to.deep.equal(Array.from({ length: count }, (_, n) => `message ${count - 1 - n}`));
    return { path, ids: messages.map((message) => message.id), page: (body) => body.messages };
  });

  it("answers 404 for another owner's account or an unknown conversation", async () => {
    const accountId = await botWithMessages([{ text: 'hello' }]);
    const other = await newOwner(t.app.api);
    expect((await t.app.api.get(`/accounts/${accountId}/conversations`, { token: other.key })).status).to.equal(404);
    expect(
      (await t.app.api.get(`/accounts/${accountId}/conversations/conv_01jd3y6w7q5v8k0n2b4c6e8g1h`, { token: t.owner.key })).status,
    ).to.equal(404);
  });
});
