import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { quiescent } from '../../support/wait.js';

describeApi('wallet — pass transactions', (t) => {
  const { wallet } = t.sandbox;

  async function newPass(body: Record<string, unknown> = {}): Promise<{ id: string; programId: string; serialNumber: string }> {
    const { programId } = await wallet.connectedProgram(t.owner);
    const created = await t.app.api.post('/wallet/passes', { token: t.owner.key, body: { programId, ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body;
  }

  const record = (passId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.api.post(`/wallet/passes/${passId}/transactions`, { token: t.owner.key, body, headers });

  it('earns, redeems, adjusts and records purchases, each with the balance after it', async () => {
    const pass = await newPass({ balance: 10 });
    expect((await record(pass.id, { type: 'earn', points: 5 })).body.balanceAfter).to.equal(15);
    expect((await record(pass.id, { type: 'redeem', points: 12 })).body).to.include({ points: -12, balanceAfter: 3 });
    expect((await record(pass.id, { type: 'adjust', points: -3 })).body.balanceAfter).to.equal(0);
    const purchase = await record(pass.id, { type: 'purchase', points: 12, amount: 1290, currency: 'EUR', reference: 'POS-1' });
    expect(purchase.status).to.equal(201);
    expect(purchase.body).to.include({ type: 'purchase', points: 12, amount: 1290, currency: 'EUR', reference: 'POS-1', balanceAfter: 12 });
    const read = await t.app.api.get(`/wallet/passes/${pass.id}`, { token: t.owner.key });
    expect(read.body.balance).to.equal(12);
    const redeems = await t.app.api.get(`/wallet/passes/${pass.id}/transactions?type=redeem`, { token: t.owner.key });
    expect(redeems.body.data.map((tx: { points: number }) => tx.points)).to.deep.equal([-12]);
  });

  it('refuses to go below zero, leaving the balance and the ledger as they were', async () => {
    const pass = await newPass({ balance: 40 });
    const refused = await record(pass.id, { type: 'redeem', points: 100 });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('insufficient_balance');
    expect(refused.body.detail).to.equal('The pass has 40 points; the transaction takes 100.');
    expect((await record(pass.id, { type: 'adjust', points: -41 })).status).to.equal(422);
    expect((await t.app.api.get(`/wallet/passes/${pass.id}`, { token: t.owner.key })).body.balance).to.equal(40);
    const ledger = await t.app.api.get(`/wallet/passes/${pass.id}/transactions`, { token: t.owner.key });
    expect(ledger.body.data.map((tx: { note: string }) => tx.note)).to.deep.equal(['Opening balance']);
  });

  it('refuses malformed transactions and those of an expired pass', async () => {
    const pass = await newPass();
    expect((await record(pass.id, { type: 'earn' })).status).to.equal(400);
    expect((await record(pass.id, { type: 'adjust', points: 0 })).status).to.equal(400);
    expect((await record(pass.id, { type: 'purchase', points: 3 })).status).to.equal(400);
    await t.app.services
      .db('walletPasses')
      .where({ id: pass.id })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await record(pass.id, { type: 'earn', points: 1 });
    expect(expired.status).to.equal(422);
    expect(expired.body.code).to.equal('wallet_pass_expired');
  });

  it('counts a retried request once (Idempotency-Key), and refuses the key with another body', async () => {
    const pass = await newPass();
    const key = { 'Idempotency-Key': `tx-${pass.id}` };
    const first = await record(pass.id, { type: 'earn', points: 7 }, key);
    const again = await record(pass.id, { type: 'earn', points: 7 }, key);
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(first.body);
    expect((await t.app.api.get(`/wallet/passes/${pass.id}`, { token: t.owner.key })).body.balance).to.equal(7);
    const reused = await record(pass.id, { type: 'earn', points: 8 }, key);
    expect(reused.status).to.equal(422);
    expect(reused.body.code).to.equal('idempotency_key_reused');
  });

  it('emits pass.updated with the transaction, in the same commit as the balance', async () => {
    const pass = await newPass();
    const earned = await record(pass.id, { type: 'earn', points: 3 });
    await quiescent(t.app);
    const events = await t.app.services.db('events').where({ ownerId: t.owner.ownerId, name: 'pass.updated' });
    expect(events.map((event: { data: unknown }) => event.data)).to.deep.equal([
      {
        passId: pass.id,
        programId: pass.programId,
        serialNumber: pass.serialNumber,
        changedFields: ['balance'],
        transactionId: earned.body.id,
      },
    ]);
  });

  it('keeps the balance right under concurrent redemptions', async () => {
    const pass = await newPass({ balance: 10 });
    const answers = await Promise.all(Array.from({ length: 15 }, () => record(pass.id, { type: 'redeem', points: 1 })));
    expect(answers.filter((answer) => answer.status === 201)).to.have.length(10);
    expect(answers.filter((answer) => answer.status === 422)).to.have.length(5);
    expect((await t.app.api.get(`/wallet/passes/${pass.id}`, { token: t.owner.key })).body.balance).to.equal(0);
  });

  itPagesByKeyset(t, 'listPassTransactions', async (count) => {
    const pass = await newPass();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await record(pass.id, { type: 'earn', points: i + 1 })).body.id);
    return { path: `/wallet/passes/${pass.id}/transactions`, ids: ids.reverse(), filter: { query: 'type=adjust', ids: [] } };
  });
});
