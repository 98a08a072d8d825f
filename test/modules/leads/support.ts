import { expect } from 'chai';
import { leadsSettings, type LeadsSettings } from '../../../src/modules/leads/settings.js';
import type { ApiTest } from '../../support/harness.js';
import { connectNewPage, type ConnectedPage } from '../../support/sandbox/social-network.js';
import { consent, returnToService, startConnection } from '../../support/sandbox/oauth.js';

/** The leads settings of a test app: a refused lead tried again a second later. */
export function leadsTestSettings(changes: Partial<LeadsSettings> = {}): { leads: LeadsSettings } {
  return { leads: { ...leadsSettings({}).leads, retrySeconds: [1], leaseSeconds: 2, ...changes } };
}

/** A page of the owner's, connected, with a form made in the platform's tools. */
export async function pageWithForm(t: ApiTest, form: Record<string, unknown> = {}): Promise<ConnectedPage & { formId: string }> {
  const page = await connectNewPage(t.app, t.owner);
  const made = await t.sandbox.leadAds.newForm(page.pageId, {
    name: 'Wholesale enquiries',
    questions: [
      { type: 'FULL_NAME', key: 'full_name' },
      { type: 'EMAIL', key: 'email' },
      {
        type: 'CUSTOM',
        key: 'interest',
        label: 'What are you interested in?',
        options: [
          { key: 'wholesale', value: 'Wholesale' },
          { key: 'office', value: 'Office' },
        ],
      },
    ],
    ...form,
  });
  return { ...page, formId: made.id };
}

/** A TikTok advertiser of the owner's, connected as an ad account, with an instant form. */
export async function advertiserWithForm(t: ApiTest): Promise<{ adAccountId: string; advertiserId: string; formId: string }> {
  const advertiser = await t.sandbox.shortVideoAds.newAdvertiser({ name: 'Lead Shop' });
  const back = await returnToService(
    t.app,
    await consent(await startConnection(t.app, t.owner, 'short_video_ads'), 'approve', { advertiser_ids: advertiser.advertiser_id }),
  );
  const adAccountId = new URL(back.headers.get('location')!).searchParams.get('adAccountIds')!;
  const form = await t.sandbox.instantForms.newForm(advertiser.advertiser_id, { title: 'Test drive' });
  return { adAccountId, advertiserId: advertiser.advertiser_id, formId: form.page_id };
}

/** The owner's hook for `lead.received`, delivering to the test's inbox. */
export async function hookLeads(t: ApiTest): Promise<void> {
  const made = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['lead.received'] } });
  expect(made.status, made.text).to.equal(201);
}

/** The account's leads as GET /accounts/{id}/leads lists them. */
export async function leadsOf(t: ApiTest, accountId: string, query = ''): Promise<any[]> {
  const listed = await t.app.api.get(`/accounts/${accountId}/leads${query}`, { token: t.owner.key });
  expect(listed.status, listed.text).to.equal(200);
  return listed.body.data;
}
