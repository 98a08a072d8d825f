import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { advertiserWithForm, leadsTestSettings, pageWithForm } from './support.js';

describeApi('lead forms — list, read, create, archive', { settings: leadsTestSettings() }, (t) => {
  const { leadAds } = t.sandbox;
  const newForm = {
    name: 'Wholesale enquiries',
    locale: 'de_DE',
    questions: [
      { type: 'FULL_NAME' },
      { type: 'PHONE' },
      { type: 'DATE_OF_BIRTH' },
      { type: 'MARITAL_STATUS' },
      {
        type: 'CUSTOM',
        key: 'interest',
        label: 'Wofür interessieren Sie sich?',
        options: [
          { key: 'cafe', value: 'Café' },
          { key: 'office', value: 'Büro' },
        ],
      },
    ],
    privacyPolicy: { url: 'https://acme.example/privacy', linkText: 'Datenschutz' },
    thankYouPage: { title: 'Danke!', body: 'Wir rufen Sie an.', buttonType: 'VIEW_WEBSITE', websiteUrl: 'https://acme.example' },
    contextCard: { title: 'Kaffee für Ihr Café', style: 'LIST', content: ['Wöchentlich geröstet', 'Proben gratis'] },
  };

  it('creates a form on the page with every kind of question, mapped to the platform’s names, and reads it back', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const made = await t.app.api.post(`/accounts/${page.accountId}/lead-forms`, { token: t.owner.key, body: newForm });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.deep.include({
      accountId: page.accountId,
      platform: 'social_network',
      name: 'Wholesale enquiries',
      status: 'active',
      locale: 'de_DE',
    });
    expect(
      made.body.questions.map((q: { type: string; platformType: string; key: string }) => [q.type, q.platformType, q.key]),
    ).to.deep.equal([
      ['FULL_NAME', 'FULL_NAME', 'full_name'],
      ['PHONE', 'PHONE', 'phone_number'],
      ['DATE_OF_BIRTH', 'DOB', 'date_of_birth'],
      ['MARITAL_STATUS', 'MARITIAL_STATUS', 'marital_status'],
      ['CUSTOM', 'CUSTOM', 'interest'],
    ]);
    expect(made.body.thankYouPage).to.deep.include({ title: 'Danke!', buttonType: 'VIEW_WEBSITE', websiteUrl: 'https://acme.example' });
    expect(made.body.contextCard).to.deep.equal({
      title: 'Kaffee für Ihr Café',
      style: 'LIST',
      content: ['Wöchentlich geröstet', 'Proben gratis'],
    });
    const read = await t.app.api.get(`/accounts/${page.accountId}/lead-forms/${made.body.formId}`, { token: t.owner.key });
    expect(read.body).to.deep.equal(made.body);
    expect((await leadAds.onPlatform(page.pageId)).forms).to.have.length(1);
  });

  it('refuses a form the contract allows and the platform would not: a CUSTOM question without a label, a key asked twice, a button without its target', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const refused = await t.app.api.post(`/accounts/${page.accountId}/lead-forms`, {
      token: t.owner.key,
      body: {
        ...newForm,
        questions: [{ type: 'EMAIL' }, { type: 'EMAIL' }, { type: 'CUSTOM', key: 'x' }],
        thankYouPage: { title: 'Danke', body: 'Bis bald', buttonType: 'CALL_BUSINESS' },
      },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).to.deep.equal([
      'body/questions/1',
      'body/questions/2/label',
      'body/thankYouPage/phoneNumber',
    ]);
    expect((await leadAds.onPlatform(page.pageId)).forms).to.deep.equal([]);
  });

  it('a form name the page uses already is the platform’s refusal, 502 with its words', async () => {
    const page = await pageWithForm(t);
    const again = await t.app.api.post(`/accounts/${page.accountId}/lead-forms`, { token: t.owner.key, body: newForm });
    expect(again.status).to.equal(502);
    expect(again.body.detail).to.match(/unique name/);
  });

  it('lists a form made in the platform’s tools with a question kind the service does not know, as OTHER with the platform’s name', async () => {
    const page = await pageWithForm(t, {
      questions: [
        { type: 'EMAIL', key: 'email' },
        { type: 'APPOINTMENT_REQUEST', key: 'when', label: 'When?' },
      ],
    });
    const listed = await t.app.api.get(`/accounts/${page.accountId}/lead-forms`, { token: t.owner.key });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.data[0].questions[1]).to.deep.equal({
      type: 'OTHER',
      platformType: 'APPOINTMENT_REQUEST',
      key: 'when',
      label: 'When?',
      options: [],
    });
  });

  it('archives a form and brings it back; the status filter lists each where it belongs', async () => {
    const page = await pageWithForm(t);
    const archive = (status: string) =>
      t.app.api.patch(`/accounts/${page.accountId}/lead-forms/${page.formId}`, { token: t.owner.key, body: { status } });
    expect((await archive('archived')).body.status).to.equal('archived');
    const listed = async (status: string) =>
      (await t.app.api.get(`/accounts/${page.accountId}/lead-forms?status=${status}`, { token: t.owner.key })).body.data.map(
        (f: { formId: string }) => f.formId,
      );
    expect(await listed('archived')).to.deep.equal([page.formId]);
    expect(await listed('active')).to.deep.equal([]);
    expect((await archive('active')).body.status).to.equal('active');
  });

  it('another page’s form is no form of this page: 404', async () => {
    const other = await pageWithForm(t);
    const page = await connectNewPage(t.app, t.owner);
    const read = await t.app.api.get(`/accounts/${page.accountId}/lead-forms/${other.formId}`, { token: t.owner.key });
    expect(read.status).to.equal(404);
  });

  it("TikTok: an advertiser's instant forms are listed by its ad account; they are made in TikTok's tools only (422)", async () => {
    const advertiser = await advertiserWithForm(t);
    const listed = await t.app.api.get(`/accounts/${advertiser.adAccountId}/lead-forms`, { token: t.owner.key });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.data.map((f: { formId: string; platform: string }) => [f.formId, f.platform])).to.deep.equal([
      [advertiser.formId, 'short_video_ads'],
    ]);
    const made = await t.app.api.post(`/accounts/${advertiser.adAccountId}/lead-forms`, { token: t.owner.key, body: newForm });
    expect(made.status).to.equal(422);
    expect(made.body.code).to.equal('account_platform_unsupported');
  });

  itPagesThroughPlatform(t, 'listLeadForms', async (count) => {
    const page = await connectNewPage(t.app, t.owner);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await leadAds.newForm(page.pageId, { name: `Form ${i}` })).id);
    return { path: `/accounts/${page.accountId}/lead-forms`, ids: ids.reverse(), idOf: (form: { formId: string }) => form.formId };
  });
});
