import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { quiescent, until } from '../../support/wait.js';
import { advertiserWithForm, hookLeads, leadsOf, leadsTestSettings, pageWithForm } from './support.js';

describeApi('leads — every lead the platforms announce is kept, read and emitted once', { settings: leadsTestSettings() }, (t) => {
  const { leadAds, instantForms } = t.sandbox;
  const lena = { full_name: ['Lena Fischer'], email: ['lena@cafe-fischer.example'], interest: ['wholesale'] };
  const healthOf = async (accountId: string) => {
    const { body } = await t.app.api.get('/accounts/health?limit=100', { token: t.owner.key });
    return body.data.find((entry: { accountId: string }) => entry.accountId === accountId);
  };

  it("a person's form arrives by the page's leadgen webhook, is read from the platform, stored and emitted as lead.received", async () => {
    const page = await pageWithForm(t);
    await hookLeads(t);
    const { lead, deliveries } = await leadAds.submit(page.formId, { fields: lena, adId: '120210000000000101', platform: 'ig' });
    expect(deliveries.map((d) => d.status)).to.deep.equal([200]);
    const [delivery] = await t.inbox.waitFor(1);
    const event = JSON.parse(delivery!.rawBody);
    expect(event).to.deep.include({ event: 'lead.received', ownerId: t.owner.ownerId, profileId: t.owner.profileId });
    expect(event.data).to.deep.include({
      platformLeadId: lead.id,
      accountId: page.accountId,
      platform: 'social_network',
      formId: page.formId,
      adId: '120210000000000101',
      fields: lena,
      isOrganic: false,
      isTest: false,
    });
    const [listed] = await leadsOf(t, page.accountId);
    expect(listed).to.deep.include({
      id: event.data.leadId,
      formName: 'Wholesale enquiries',
      sourcePlatform: 'instagram',
      state: 'new',
      fields: lena,
      retrieval: { status: 'retrieved', reason: null, attempts: 1, nextAttemptAt: null },
    });
  });

  it('a webhook the platform delivers twice makes one lead and one lead.received', async () => {
    const page = await pageWithForm(t);
    await hookLeads(t);
    await leadAds.duplicateNextLead(page.pageId, 2);
    const { deliveries } = await leadAds.submit(page.formId, { fields: lena });
    expect(deliveries.map((d) => d.status)).to.deep.equal([200, 200, 200]);
    await t.inbox.waitFor(1);
    await quiescent(t.app);
    expect(t.inbox.events().map((e) => e.event)).to.deep.equal(['lead.received']);
    expect(await leadsOf(t, page.accountId)).to.have.length(1);
  });

  it("a lead the page's Leads Access Manager refuses is kept unretrieved with the reason, tried again, and emitted once access is given", async () => {
    const page = await pageWithForm(t);
    await hookLeads(t);
    await leadAds.leadAccess(page.pageId, false);
    const { lead } = await leadAds.submit(page.formId, { fields: lena });
    const [kept] = await until(() => leadsOf(t, page.accountId, '?retrieval=unretrieved'), {
      done: (listed) => listed.length === 1 && listed[0].retrieval.attempts >= 2,
      what: 'the refused lead tried twice',
    });
    expect(kept).to.deep.include({ platformLeadId: lead.id, fields: {} });
    expect(kept.retrieval.reason).to.match(/Leads Access Manager/);
    expect(kept.retrieval.nextAttemptAt).to.be.a('string');
    expect(t.inbox.received).to.have.length(0);
    const account = await t.app.api.get(`/accounts/${page.accountId}`, { token: t.owner.key });
    expect(account.body.status, 'a page admin fixes lead access, not a reconnection').to.equal('connected');
    const refused = await healthOf(page.accountId);
    expect(refused).to.deep.include({ status: 'connected', health: 'degraded', action: 'grant_lead_access' });
    expect(refused.message).to.match(/Leads Access Manager/);
    expect(refused.lastError).to.include({ code: 'lead_access_refused' });
    expect(refused.lastError.message).to.match(/Leads Access Manager/);

    await leadAds.leadAccess(page.pageId, true);
    const [delivery] = await t.inbox.waitFor(1);
    expect(JSON.parse(delivery!.rawBody).data).to.deep.include({ leadId: kept.id, fields: lena });
    await quiescent(t.app);
    const [read] = await leadsOf(t, page.accountId);
    expect(read.retrieval).to.include({ status: 'retrieved', reason: null, nextAttemptAt: null });
    expect(t.inbox.received).to.have.length(1);
    expect(await healthOf(page.accountId), 'a lead read clears what the page had to fix').to.deep.include({
      health: 'healthy',
      action: 'none',
      lastError: null,
    });
  });

  it("TikTok: an advertiser's instant form sent arrives by its lead webhook and is read with the ad account's token", async () => {
    const advertiser = await advertiserWithForm(t);
    await hookLeads(t);
    const { lead, webhookStatus } = await instantForms.submit(advertiser.formId, {
      adId: '1790000000000000001',
      fields: { email: 'jonas@example.com' },
    });
    expect(webhookStatus).to.equal(200);
    const [delivery] = await t.inbox.waitFor(1);
    expect(JSON.parse(delivery!.rawBody).data).to.deep.include({
      platformLeadId: lead.lead_id,
      accountId: advertiser.adAccountId,
      platform: 'short_video_ads',
      formId: advertiser.formId,
      adId: '1790000000000000001',
      fields: { name: ['name answer'], email: ['jonas@example.com'] },
    });
    const [listed] = await leadsOf(t, advertiser.adAccountId);
    expect(listed).to.deep.include({ formName: 'Test drive', sourcePlatform: 'tiktok' });
  });

  it("TikTok: a lead refused while the advertiser's lead access is off is read once it is on", async () => {
    const advertiser = await advertiserWithForm(t);
    await hookLeads(t);
    await instantForms.leadAccess(advertiser.advertiserId, false);
    await instantForms.submit(advertiser.formId);
    await until(() => leadsOf(t, advertiser.adAccountId, '?retrieval=unretrieved'), {
      done: (l) => l.length === 1,
      what: 'an unretrieved lead',
    });
    await instantForms.leadAccess(advertiser.advertiserId, true);
    await t.inbox.waitFor(1);
  });
});
