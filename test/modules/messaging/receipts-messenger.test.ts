import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent, until } from '../../support/wait.js';

describeApi('delivery receipts — social_network Messenger', (t) => {
  const { socialNetwork, messenger } = t.sandbox;
  const lena = '6734519027381945';

  async function sentToLena(texts: string[]) {
    const page = await connectNewPage(t.app, t.owner);
    await socialNetwork.sendMessage(page.pageId, 'Hello page', lena);
    await quiescent(t.app);
    const ids: string[] = [];
    for (const text of texts) {
      const sent = await t.app.api.post(`/accounts/${page.accountId}/messages`, { token: t.owner.key, body: { recipientId: lena, text } });
      expect(sent.status, sent.text).to.equal(201);
      ids.push(sent.body.data[0].id);
    }
    const read = async (id: string) => (await t.app.api.get(`/accounts/${page.accountId}/messages/${id}`, { token: t.owner.key })).body;
    return { page, ids, read };
  }

  it('delivery then read: each message shows its status and when it reached each', async () => {
    const { page, ids, read } = await sentToLena(['one', 'two']);
    await messenger.receipt(page.pageId, lena, 'delivery');
    await until(() => read(ids[1]!), { done: (m) => m.status === 'delivered', what: 'delivered' });
    await messenger.receipt(page.pageId, lena, 'read');
    for (const id of ids) {
      const message = await until(() => read(id), { done: (m) => m.status === 'read', what: `${id} read` });
      expect(message.statusHistory.map((h: { status: string }) => h.status)).to.deep.equal(['sent', 'delivered', 'read']);
    }
  });

  it('out of order and twice: a read before its delivery keeps read; a duplicate adds nothing', async () => {
    const { page, ids, read } = await sentToLena(['only']);
    await messenger.receipt(page.pageId, lena, 'read');
    await until(() => read(ids[0]!), { done: (m) => m.status === 'read', what: 'read' });
    await messenger.receipt(page.pageId, lena, 'delivery');
    await messenger.receipt(page.pageId, lena, 'delivery');
    await quiescent(t.app);
    const message = await read(ids[0]!);
    expect(message.status).to.equal('read');
    expect(message.statusHistory.map((h: { status: string }) => h.status)).to.deep.equal(['sent', 'delivered', 'read']);
  });
});
