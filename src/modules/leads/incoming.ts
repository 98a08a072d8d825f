import type { Knex } from 'knex';
import type { IncomingLead } from '../../platforms/capabilities/leads.js';
import type { Services } from '../../services.js';
import { accountsAddressedBy, adAccountsAddressedBy } from '../accounts/incoming.js';
import { announceLeads, leadColumns } from './store.js';

/**
 * Leads a platform's webhooks announced, stored for every connection they are addressed to (a page's accounts, an
 * advertiser's ad accounts) in the transaction that marks the webhooks processed: from then on the worker reads
 * each until the platform gives it. The same lead announced again adds nothing.
 */
export async function receiveLeads(_services: Services, platform: string, events: IncomingLead[], trx: Knex.Transaction): Promise<void> {
  const rows: Array<Record<string, unknown>> = [];
  for (const event of events) {
    const connections = event.advertiser
      ? await adAccountsAddressedBy(trx, platform, event.platformAccountId)
      : await accountsAddressedBy(trx, platform, { accountId: null, platformAccountId: event.platformAccountId });
    const lead = {
      id: event.platformLeadId,
      formId: event.formId,
      adId: event.adId,
      adsetId: event.adsetId,
      campaignId: event.campaignId,
      createdAt: event.createdAt ?? new Date(),
    };
    for (const connection of connections) rows.push(leadColumns(connection, lead));
  }
  await announceLeads(trx, rows);
}
