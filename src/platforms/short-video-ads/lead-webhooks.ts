import type { IncomingLead } from '../capabilities/leads.js';

/** What the read content of a lead event holds (ids as strings: int64s past 2^53 are made strings first). [U] */
type Content = Record<string, unknown>;

const idOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

/**
 * A person sent an advertiser's instant form (the lead subscription's event): `content` names the lead, its form
 * (`page_id`), the advertiser and the ad; the answers are read with `page/lead/get` afterwards.
 */
export function leadSubmitted(content: Content): IncomingLead[] {
  const leadId = idOf(content.lead_id);
  const formId = idOf(content.page_id);
  const advertiserId = idOf(content.advertiser_id);
  if (!leadId || !formId || !advertiserId) return [];
  const created = typeof content.create_time === 'number' ? new Date(content.create_time * 1000) : null;
  return [
    {
      kind: 'lead',
      platformAccountId: advertiserId,
      advertiser: true,
      platformLeadId: leadId,
      formId,
      adId: idOf(content.ad_id),
      adsetId: idOf(content.adgroup_id),
      campaignId: idOf(content.campaign_id),
      createdAt: created,
    },
  ];
}
