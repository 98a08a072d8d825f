import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent, until } from '../../support/wait.js';

describeApi(
  'platform webhook intake — a worker killed in the middle of a batch',
  { settings: { intake: { leaseSeconds: 1, batchSize: 5 } } },
  (t) => {
    const { botchat } = t.sandbox;
    const lena = { id: 602, firstName: 'Lena' };
    let dying: CrashableWorker | undefined;
    after(() => dying?.stop());

    it('commits none of the batch it was handling, and another worker stores each message once and in order', async () => {
      const bot = await connectBot(t.app, t.owner);
      // Stored while no worker runs: the next worker claims them in batches of five.
      await t.app.intake!.stop();
      const texts = Array.from({ length: 12 }, (_, n) => `message ${n}`);
      for (const text of texts) expect((await botchat.sendMessage(bot.token, text, lena)).webhookStatus).to.equal(200);

      dying = await CrashableWorker.standIn(t.app, 'intake', { dieAfter: 1 });
      await until(() => dying!.dead, { what: 'the worker to die handling its second batch' });
      const processed = () => t.app.services.db('platformWebhooks').where({ sourceAccountId: bot.accountId }).whereNotNull('processedAt');
      const stored = () => t.app.services.db('messages').where({ accountId: bot.accountId });
      // The first batch committed whole; of the second, handled when it died, nothing.
      expect(await processed()).to.have.length(5);
      expect(await stored()).to.have.length(5);

      await dying.replace();
      await quiescent(t.app);
      expect(await processed()).to.have.length(12);
      const messages = (await t.app.services.db('messages').where({ accountId: bot.accountId }).orderBy('id')) as Array<{ text: string }>;
      expect(messages.map(({ text }) => text)).to.deep.equal(texts);
    });
  },
);
