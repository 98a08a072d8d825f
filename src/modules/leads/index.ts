import { defineArea } from '../area.js';
import { BACKFILL_NEW_JOB, backfillNewConnections, LeadBackfillWork } from './backfill.js';
import * as handlers from './handlers.js';
import { receiveLeads } from './incoming.js';
import { purgeLeads } from './list.js';
import { LeadRetrievalWork } from './retrieval.js';
import { leadsSettings } from './settings.js';

/**
 * Lead forms and leads of pages (Meta) and advertisers (TikTok): forms read and made live, every lead the
 * platforms announce stored first and read afterwards (retried while the platform refuses), 90 days backfilled
 * on connect, the simulator, and the pipeline of states with its history.
 */
export const leads = defineArea({
  name: 'leads',
  contractArea: 'Leads',
  handlers,
  tables: ['leads', 'lead_state_changes', 'lead_backfills'],
  settings: leadsSettings,
  incoming: { lead: receiveLeads },
  jobs: (services) => ({ [BACKFILL_NEW_JOB]: () => backfillNewConnections(services) }),
  schedules: { [BACKFILL_NEW_JOB]: '1 minute' },
  workers: {
    leads: (services) => new LeadRetrievalWork(services),
    'lead-backfills': (services) => new LeadBackfillWork(services),
  },
  purge: purgeLeads,
  outstanding: {
    leads: `SELECT count(*) FROM leads WHERE retrieval_status <> 'retrieved' AND (next_attempt_at <= now() OR locked_until > now())`,
    leadBackfills: 'SELECT count(*) FROM lead_backfills WHERE done_at IS NULL AND (due_at <= now() OR locked_until > now())',
  },
});
