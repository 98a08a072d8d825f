import { expect } from 'chai';
import { backfillNewConnections } from '../../../src/modules/leads/backfill.js';
import { purgeLeads } from '../../../src/modules/leads/list.js';
import { describeApi } from '../../support/harness.js';
import { quiescent, until } from '../../support/wait.js';
import { hookLeads, leadsOf, leadsTestSettings, pageWithForm } from './support.js';

describeApi(
  'leads — 90 days backfilled on connect and on demand; retention',
  { settings: leadsTestSettings({ retentionDays: 30 }) },
  (t) => {
    const { leadAds } = t.sandbox;

    it('a page connected with leads of the last months: those of 90 days are stored and emitted on connect, older ones the platform keeps no more', async () => {
      const page = await pageWithForm(t);
      await hookLeads(t);
      const recent = await leadAds.submit(page.formId, { daysAgo: 10 });
      await leadAds.submit(page.formId, { daysAgo: 100 });
      // The job that runs each minute, finding the page connected since it last ran.
      await backfillNewConnections(t.app.services);
      const backfilled = await until(() => leadsOf(t, page.accountId), {
        done: (leads) => leads.length === 1,
        what: 'the backfill on connect',
      });
      expect(backfilled[0]).to.deep.include({
        platformLeadId: recent.lead.id,
        retrieval: { status: 'retrieved', reason: null, attempts: 1, nextAttemptAt: null },
      });
      await t.inbox.waitFor(1);

      const another = await leadAds.submit(page.formId, { daysAgo: 3 });
      const asked = await t.app.api.post(`/accounts/${page.accountId}/leads/backfill`, { token: t.owner.key });
      expect(asked.status, asked.text).to.equal(202);
      expect(asked.body.forms).to.equal(1);
      await until(() => leadsOf(t, page.accountId), { done: (leads) => leads.length === 2, what: 'the backfill asked for' });
      await quiescent(t.app);
      expect(
        t.inbox
          .events()
          .map((e) => e.data.platformLeadId)
          .sort(),
      ).to.deep.equal([recent.lead.id, another.lead.id].sort());
    });

    it('leads received longer ago than the retention period are forgotten', async () => {
      const page = await pageWithForm(t);
      const made = await t.app.api.post(`/accounts/${page.accountId}/lead-forms/${page.formId}/test-webhook`, {
        token: t.owner.key,
        body: {},
      });
      await t.app.services
        .db('leads')
        .where({ id: made.body.id })
        .update({ receivedAt: new Date(Date.now() - 31 * 86_400_000) });
      const kept = await t.app.api.post(`/accounts/${page.accountId}/lead-forms/${page.formId}/test-webhook`, {
        token: t.owner.key,
        body: {},
      });
      expect(await purgeLeads(t.app.services)).to.deep.include({ leads: 1 });
      expect((await leadsOf(t, page.accountId)).map((lead) => lead.id)).to.deep.equal([kept.body.id]);
    });
  },
);
