import type { IncomingLead } from '../capabilities/leads.js';
import type { GraphObjectParser } from '../meta/graph-webhook.js';

/** A page `leadgen` change, as Meta sends it (ids as strings, the time in seconds). */
interface LeadgenChange {
  leadgen_id?: string | number;
  page_id?: string | number;
  form_id?: string | number;
  ad_id?: string | number;
  adgroup_id?: string | number;
  campaign_id?: string | number;
  created_time?: number;
}
interface LeadgenEntry {
  id?: string;
  changes?: Array<{ field?: string; value?: LeadgenChange }>;
}

const idOf = (value: string | number | undefined) => (value === undefined || value === '' ? null : String(value));

/** A page's `leadgen` field: a person sent one of its lead forms. The answers are read from the Graph afterwards. */
export const pageLeadgen: GraphObjectParser = {
  object: 'page',
  parse: (notification) =>
    ((notification.entry ?? []) as LeadgenEntry[]).flatMap((entry) =>
      (entry.changes ?? []).flatMap(({ field, value }): IncomingLead[] => {
        const leadId = idOf(value?.leadgen_id);
        const formId = idOf(value?.form_id);
        const pageId = idOf(value?.page_id) ?? entry.id;
        if (field !== 'leadgen' || !leadId || !formId || !pageId) return [];
        return [
          {
            kind: 'lead',
            platformAccountId: pageId,
            advertiser: false,
            platformLeadId: leadId,
            formId,
            adId: idOf(value?.ad_id),
            adsetId: idOf(value?.adgroup_id),
            campaignId: idOf(value?.campaign_id),
            createdAt: typeof value?.created_time === 'number' ? new Date(value.created_time * 1000) : null,
          },
        ];
      }),
    ),
};
