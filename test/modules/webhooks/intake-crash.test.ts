import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent, until } from '../../support/wait.js';

describeApi('platform webhook intake — a worker killed in the middle of a batch', { settings: { intake: { leaseSeconds: 1 } } }, (t) => {
  const { botchat } = t.sandbox;
  const lena = { id: 602, firstName: 'Lena' };
  let dying: CrashableWorker | undefined;
  after(() => dying?.stop());

  it('leaves the rest of its batch to another worker, which stores each message once and in order', async () => {
    const bot = await connectBot(t.app, t.owner);
    // Stored while no worker runs: the next worker claims them as one batch.
    await t.app.intake!.stop();
    const texts = Array.from({ length: 12 }, (_, n) => `message ${n}`);
    for (const text of texts) expect((await botchat.sendMessage(bot.token, text, lena)).webhookStatus).to.equal(200);

    dying = await CrashableWorker.standIn(t.app, 'intake', { dieAfter: 5 });
    await until(() => dying!.dead, { what: 'the worker to die at its sixth webhook' });
    const processed = () => t.app.services.db('platformWebhooks').where({ sourceAccountId: bot.accountId }).whereNotNull('processedAt');
    // The marks of the five it handled may still be committing as it dies.
    await until(async () => (await processed()).length === 5, { what: 'the five webhooks handled before the death to be marked' });

    await dying.replace();
    await quiescent(t.app);
    expect(await processed()).to.have.length(12);
    const messages = (await t.app.services.db('messages').where({ accountId: bot.accountId }).orderBy('id')) as Array<{ text: string }>;
    expect(messages.map(({ text }) => text)).to.deep.equal(texts);
  });
});
