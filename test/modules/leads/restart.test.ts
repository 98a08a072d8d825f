import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { quiescent, until } from '../../support/wait.js';
import { hookLeads, leadsOf, leadsTestSettings, pageWithForm } from './support.js';

// A worker stood in for is the file's for good: one app per worker killed.
const lena = { full_name: ['Lena Fischer'], email: ['lena@cafe-fischer.example'], interest: ['wholesale'] };

describeApi('leads — a restart between the notification and the retrieval (leads worker)', { settings: leadsTestSettings() }, (t) => {
  const { leadAds } = t.sandbox;
  it('a worker that dies between the notification and the retrieval loses nothing: another reads the lead, emitted once', async () => {
    const page = await pageWithForm(t);
    await hookLeads(t);
    const worker = await CrashableWorker.standIn(t.app, 'leads', { dieAfter: 0 });
    try {
      await leadAds.submit(page.formId, { fields: lena });
      await until(async () => worker.dead, { done: Boolean, what: 'the leads worker to die having read the lead' });
      const [pending] = await leadsOf(t, page.accountId);
      expect(pending.retrieval.status, 'read, not recorded').to.equal('pending');
      await worker.replace();
      await t.inbox.waitFor(1);
      await quiescent(t.app);
      expect(t.inbox.events().map((e) => e.data.fields)).to.deep.equal([lena]);
    } finally {
      await worker.stop();
    }
  });
});

describeApi('leads — a restart between the notification and the retrieval (intake)', { settings: leadsTestSettings() }, (t) => {
  const { leadAds } = t.sandbox;
  it('an intake that dies before storing the announced lead loses nothing: the webhook is handled again', async () => {
    const page = await pageWithForm(t);
    await hookLeads(t);
    const intake = await CrashableWorker.standIn(t.app, 'intake', { dieAfter: 0 });
    try {
      await leadAds.submit(page.formId, { fields: lena });
      await until(async () => intake.dead, { done: Boolean, what: 'the intake to die before committing' });
      expect(await leadsOf(t, page.accountId)).to.deep.equal([]);
      await intake.replace();
      await t.inbox.waitFor(1);
      await quiescent(t.app);
      expect(t.inbox.received).to.have.length(1);
    } finally {
      await intake.stop();
    }
  });
});
