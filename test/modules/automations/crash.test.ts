import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent, until } from '../../support/wait.js';
import { createAutomation, finishedRuns } from './support.js';

describeApi(
  'automations — a worker killed in the middle of a run',
  { settings: { automations: { concurrency: 10, leaseSeconds: 1 } } },
  (t) => {
    const { botchat } = t.sandbox;
    const lena = { id: 501, firstName: 'Lena' };
    let dying: CrashableWorker | undefined;
    afterEach(() => dying?.stop());

    it('leaves a run another worker finishes without doing again the actions done, a reply sent but not recorded included, and one automation.triggered', async () => {
      const bot = await connectBot(t.app, t.owner);
      await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['automation.triggered'] } });
      const automation = await createAutomation(t, {
        accountIds: [bot.accountId],
        trigger: { type: 'message_received', keywords: ['hi'] },
        actions: [
          { type: 'add_tag', tag: 'greeted' },
          { type: 'reply_message', text: 'Hi {{name}}!' },
        ],
      });
      await botchat.sendMessage(bot.token, 'hello', lena);
      await quiescent(t.app);
      const conversation = await t.app.services.db('conversations').where({ accountId: bot.accountId }).first();

      // The run waits, unclaimed; the account is held so that the reply, once sent and stored, cannot be recorded.
      await t.app.automations!.stop();
      await botchat.sendMessage(bot.token, 'hi', lena);
      await quiescent(t.app, { besides: ['automations'] });
      const held = await t.app.services.db.transaction();
      try {
        await held('accounts').where({ id: bot.accountId }).forUpdate();
        dying = await CrashableWorker.standIn(t.app, 'automations');
        await until(() => botchat.onPlatform(bot.token), { done: (sent) => sent.length === 1, what: 'the reply sent' });
        const [started] = await t.app.services.db('automationRuns').where({ automationId: automation.id });
        expect(started.outcomes.map((outcome: { status: string }) => outcome.status)).to.deep.equal(['succeeded']);
        // The process dies between the platform call and the run's record of it; another takes over once the lease runs out.
        await dying.crashAndReplace();
        await held.rollback();

        const [run] = await finishedRuns(t, automation.id, 1);
        expect(run.status).to.equal('succeeded');
        expect(run.actions[0]).to.deep.include({ type: 'add_tag', status: 'succeeded', finishedAt: started.outcomes[0].finishedAt });
        expect(run.actions[1]).to.deep.include({ type: 'reply_message', status: 'succeeded' });
        const row = await t.app.services.db('automationRuns').where({ id: run.id }).first();
        expect(row.attempts).to.equal(2);
        // The platform-write ledger knew the reply was sent: the second worker did not send it again.
        expect((await botchat.onPlatform(bot.token)).map((sent) => sent.text)).to.deep.equal(['Hi Lena!']);
        expect((await t.app.services.db('conversations').where({ id: conversation.id }).first()).tags).to.deep.equal(['greeted']);
        await t.inbox.waitFor(1);
        await quiescent(t.app);
        expect(t.inbox.events().map((event) => event.data.runId)).to.deep.equal([run.id]);
        const read = await t.app.api.get(`/automations/${automation.id}`, { token: t.owner.key });
        expect(read.body.stats).to.deep.include({ triggeredCount: 1, succeededCount: 1 });
      } finally {
        if (!held.isCompleted()) await held.rollback();
      }
    });

    for (const order of ['the reply', 'the tag'] as const) {
      it(`performs ${order}, the last action, again without acting twice when the worker died after it and before the run was finished`, async () => {
        const bot = await connectBot(t.app, t.owner);
        await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['automation.triggered'] } });
        const tag = { type: 'add_tag', tag: 'greeted' };
        const reply = { type: 'reply_message', text: 'Hi {{name}}!' };
        const automation = await createAutomation(t, {
          accountIds: [bot.accountId],
          trigger: { type: 'message_received', keywords: ['hi'] },
          actions: order === 'the reply' ? [tag, reply] : [reply, tag],
        });
        // The worker dies once it has performed the run's actions, before the run is finished.
        dying = await CrashableWorker.standIn(t.app, 'automations', { dieAfter: 0 });
        await botchat.sendMessage(bot.token, 'hi', lena);
        await until(() => dying!.dead, { done: (dead) => dead, what: 'the worker to die' });
        const [left] = await t.app.services.db('automationRuns').where({ automationId: automation.id });
        expect(left.status).to.equal('running');
        // The first action's outcome was recorded as it completed; the last one was to be stored by the finish.
        expect(left.outcomes.map((outcome: { status: string }) => outcome.status)).to.deep.equal(['succeeded']);
        expect(await botchat.onPlatform(bot.token)).to.have.length(1);

        await dying.replace();
        const [run] = await finishedRuns(t, automation.id, 1);
        expect(run.status).to.equal('succeeded');
        expect(run.actions.map((action: { status: string }) => action.status)).to.deep.equal(['succeeded', 'succeeded']);
        expect(run.actions[0].finishedAt).to.equal(left.outcomes[0].finishedAt);
        expect((await t.app.services.db('automationRuns').where({ id: run.id }).first()).attempts).to.equal(2);
        expect((await botchat.onPlatform(bot.token)).map((sent) => sent.text)).to.deep.equal(['Hi Lena!']);
        const conversation = await t.app.services.db('conversations').where({ accountId: bot.accountId }).first();
        expect(conversation.tags).to.deep.equal(['greeted']);
        await t.inbox.waitFor(1);
        await quiescent(t.app);
        expect(t.inbox.events().map((event) => event.data.runId)).to.deep.equal([run.id]);
        const read = await t.app.api.get(`/automations/${automation.id}`, { token: t.owner.key });
        expect(read.body.stats).to.deep.include({ triggeredCount: 1, succeededCount: 1 });
      });
    }
  },
);
