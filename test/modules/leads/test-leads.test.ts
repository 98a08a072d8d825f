import { expect } from 'chai';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { describeApi } from '../../support/harness.js';
import { quiescent } from '../../support/wait.js';
import { advertiserWithForm, hookLeads, leadsOf, leadsTestSettings, pageWithForm } from './support.js';

describeApi('test leads — the simulator and the platforms’ own', { settings: leadsTestSettings() }, (t) => {
  const { leadAds, instantForms } = t.sandbox;
  const questions = [
    { type: 'FULL_NAME', key: 'full_name' },
    { type: 'EMAIL', key: 'email' },
    { type: 'PHONE', key: 'phone_number' },
    { type: 'ZIP', key: 'zip_code' },
    { type: 'CITY', key: 'city' },
    {
      type: 'CUSTOM',
      key: 'interest',
      label: 'Wofür?',
      options: [
        { key: 'cafe', value: 'Café' },
        { key: 'office', value: 'Büro' },
      ],
    },
  ];
  const simulate = (accountId: string, formId: string, body: Record<string, unknown> = {}) =>
    t.app.api.post(`/accounts/${accountId}/lead-forms/${formId}/test-webhook`, { token: t.owner.key, body });

  it('makes a realistic person for a German form: a German mobile number, an email on example.com, a five-digit postcode, a choice of the custom question; emitted with isTest', async () => {
    const page = await pageWithForm(t, { locale: 'de_DE', questions });
    await hookLeads(t);
    const made = await simulate(page.accountId, page.formId, { fields: { city: ['Leipzig'] } });
    expect(made.status, made.text).to.equal(202);
    const { fields } = made.body;
    expect(fields.full_name[0]).to.match(/^\S+ \S+/);
    expect(fields.email[0]).to.match(/^[a-z0-9.]+@example\.com$/);
    expect(fields.phone_number[0]).to.match(/^\+49/);
    expect(isValidPhoneNumber(fields.phone_number[0])).to.equal(true);
    expect(fields.zip_code[0]).to.match(/^\d{5}$/);
    expect(fields.city).to.deep.equal(['Leipzig']);
    expect(['cafe', 'office']).to.include(fields.interest[0]);
    expect(made.body).to.deep.include({ isTest: true, isOrganic: false, state: 'new', formName: 'Wholesale enquiries' });
    expect(made.body.adId).to.match(/^\d+$/);
    const [delivery] = await t.inbox.waitFor(1);
    expect(JSON.parse(delivery!.rawBody).data).to.deep.include({ leadId: made.body.id, isTest: true, fields });
    expect((await leadAds.onPlatform(page.pageId)).leads, 'nothing reaches the platform').to.deep.equal([]);
  });

  it('an organic test lead has no ad; a fields key the form does not ask is refused 400', async () => {
    const page = await pageWithForm(t);
    expect((await simulate(page.accountId, page.formId, { isOrganic: true })).body).to.deep.include({
      adId: null,
      adsetId: null,
      campaignId: null,
      isOrganic: true,
    });
    const refused = await simulate(page.accountId, page.formId, { fields: { shoe_size: ['42'] } });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].path).to.equal('body/fields/shoe_size');
  });

  it('at most 10 test leads per form per minute: the 11th is 429 with Retry-After', async () => {
    const page = await pageWithForm(t);
    for (let i = 0; i < 10; i += 1) expect((await simulate(page.accountId, page.formId)).status).to.equal(202);
    const eleventh = await simulate(page.accountId, page.formId);
    expect(eleventh.status).to.equal(429);
    expect(Number(eleventh.headers.get('retry-after'))).to.be.within(1, 60);
  });

  it('the platform’s own test lead goes the real webhook path and is read like a lead; one per form until deleted, then another', async () => {
    const page = await pageWithForm(t);
    await hookLeads(t);
    const made = await simulate(page.accountId, page.formId, { mode: 'platform', fields: { email: ['qa@acme.example'] } });
    expect(made.status, made.text).to.equal(202);
    expect(made.body).to.deep.include({
      isTest: true,
      retrieval: { status: 'pending', reason: null, attempts: 0, nextAttemptAt: made.body.retrieval.nextAttemptAt },
    });
    const [delivery] = await t.inbox.waitFor(1);
    expect(JSON.parse(delivery!.rawBody).data).to.deep.include({ leadId: made.body.id, isTest: true });
    expect(JSON.parse(delivery!.rawBody).data.fields.email).to.deep.equal(['qa@acme.example']);
    const second = await simulate(page.accountId, page.formId, { mode: 'platform' });
    expect(second.status).to.equal(502);
    expect(second.body.detail).to.match(/test lead already exists/);

    const deleted = await t.app.api.delete(`/accounts/${page.accountId}/leads/${made.body.id}`, { token: t.owner.key });
    expect(deleted.status).to.equal(204);
    expect((await leadAds.onPlatform(page.pageId)).leads).to.deep.equal([]);
    expect(await leadsOf(t, page.accountId)).to.deep.equal([]);
    expect((await simulate(page.accountId, page.formId, { mode: 'platform' })).status).to.equal(202);
    await quiescent(t.app);
  });

  it('TikTok: the form’s mock lead, announced by the lead subscription, is read; a simulated one needs only the form', async () => {
    const advertiser = await advertiserWithForm(t);
    await hookLeads(t);
    const mock = await simulate(advertiser.adAccountId, advertiser.formId, { mode: 'platform' });
    expect(mock.status, mock.text).to.equal(202);
    await instantForms.announce(mock.body.platformLeadId);
    const simulated = await simulate(advertiser.adAccountId, advertiser.formId);
    expect(simulated.body).to.deep.include({ platform: 'short_video_ads', sourcePlatform: 'tiktok', isTest: true });
    await t.inbox.waitFor(2);
    await quiescent(t.app);
    expect(
      t.inbox
        .events()
        .map((e) => e.data.leadId)
        .sort(),
    ).to.deep.equal([mock.body.id, simulated.body.id].sort());
  });

  it('deleting a lead forgets it, its state and its history', async () => {
    const page = await pageWithForm(t);
    const made = await simulate(page.accountId, page.formId);
    await t.app.api.patch(`/accounts/${page.accountId}/lead-states/${made.body.id}`, { token: t.owner.key, body: { state: 'spam' } });
    expect((await t.app.api.delete(`/accounts/${page.accountId}/leads/${made.body.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.get(`/accounts/${page.accountId}/lead-states/${made.body.id}`, { token: t.owner.key })).status).to.equal(404);
    expect(await t.app.services.db('leadStateChanges').where({ leadId: made.body.id })).to.deep.equal([]);
  });
});
