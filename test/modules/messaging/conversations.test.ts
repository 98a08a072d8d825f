import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';

describe('conversations — reading what people wrote', () => {
  let app: TestApp;
  let owner: TestOwner;
  before(async () => { app = await startTestApp(); });
  beforeEach(async () => { owner = await newOwner(app.api); });
  after(async () => { await app.close(); });

  async function botWithMessages(texts: string[]): Promise<string> {
    const sandbox = app.services.sandboxUrl!;
    const bot = await (await fetch(`${sandbox}/_sandbox/botchat/bots`, { method: 'POST' })).json() as { token: string };
    const account = await app.api.post('/connect/botchat', { token: owner.key, body: { profileId: owner.profileId, botToken: bot.token } });
    for (const text of texts) {
      await fetch(`${sandbox}/_sandbox/botchat/messages`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: bot.token, text, from: { id: 77, firstName: 'Lena', username: 'lena_f' } }),
      });
    }
    const deadline = Date.now() + 10_000;
    while ((await app.services.db('messages').where({ accountId: account.body.id })).length < texts.length) {
      if (Date.now() > deadline) throw new Error('the messages did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return account.body.id as string;
  }

  it('listConversations and getConversation show the person, unread count and messages newest first', async () => {
    const accountId = await botWithMessages(['first', 'second', 'third']);
    const listed = await app.api.get(`/accounts/${accountId}/conversations`, { token: owner.key });
    expect(listed.status).to.equal(200);
    expect(listed.body.data).to.have.length(1);
    const [conversation] = listed.body.data;
    expect(conversation).to.include({ platform: 'botchat', platformConversationId: '77', unreadCount: 3, title: 'Lena', canReplyUntil: null });
    expect(conversation.participants[0]).to.deep.equal({ id: '77', name: 'Lena', username: 'lena_f', phone: null });
    expect(conversation.lastMessage).to.include({ direction: 'in', text: 'third' });
    const page = await app.api.get(`/accounts/${accountId}/conversations/${conversation.id}?limit=2`, { token: owner.key });
    expect(page.body.messages.data.map((m: { text: string }) => m.text)).to.deep.equal(['third', 'second']);
    const older = await app.api.get(`/accounts/${accountId}/conversations/${conversation.id}?limit=2&cursor=${page.body.messages.nextCursor}`, { token: owner.key });
    expect(older.body.messages.data.map((m: { text: string }) => m.text)).to.deep.equal(['first']);
    expect((await app.api.get(`/accounts/${accountId}/conversations?unread=false`, { token: owner.key })).body.data).to.deep.equal([]);
  });

  it("answers 404 for another owner's account or an unknown conversation", async () => {
    const accountId = await botWithMessages(['hello']);
    const other = await newOwner(app.api);
    expect((await app.api.get(`/accounts/${accountId}/conversations`, { token: other.key })).status).to.equal(404);
    expect((await app.api.get(`/accounts/${accountId}/conversations/conv_01jd3y6w7q5v8k0n2b4c6e8g1h`, { token: owner.key })).status).to.equal(404);
  });
});
