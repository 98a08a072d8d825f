import type { AccountId, AdAccountId } from '../../lib/ids.js';
import { LeadFormNotFoundAtPlatform, type Leads } from '../../platforms/capabilities/leads.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { CapabilityUnsupportedError } from '../accounts/errors.js';
import { type Connection, isAdAccountId } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { findConnection } from '../accounts/read.js';
import type { Principal } from '../auth/principal.js';
import { NotFoundError } from '../../lib/errors.js';

/**
 * Lead forms belong to a Meta page (an account) or to a TikTok advertiser (an ad account): a connection of the
 * other kind on the same platform has none (a Meta ad account's forms are its pages').
 */
function leadsKindProblem(services: Services, row: Connection): string | null {
  const leads = services.platforms.get(row.platform)?.leads;
  if (!leads) return `Lead forms exist on social_network pages and short_video_ads ad accounts only; this is a ${row.platform} connection.`;
  const adAccount = isAdAccountId(row.id);
  if (adAccount && row.platform === 'social_network')
    return "Meta's lead forms belong to pages: name the page's account (acc_…), not the ad account.";
  if (!adAccount && row.platform === 'short_video_ads')
    return "TikTok's instant forms belong to the advertiser: name its ad account (adacc_…).";
  return null;
}

/** The caller's connection whose leads the path names (404, 403), one that has lead forms (422). */
export async function leadsConnection(services: Services, principal: Principal, id: string): Promise<Connection> {
  const row = await findConnection(services.db, principal, id as AccountId | AdAccountId);
  const problem = leadsKindProblem(services, row);
  if (problem) throw new CapabilityUnsupportedError(problem);
  return row;
}

/** What a lead platform call needs of the capability, beyond reading forms and leads. */
type Part = 'createForm' | 'setFormStatus' | 'formLeads';

/**
 * Calls the platform's lead forms for the caller's connection: connected (409), granted `leads_retrieval` where
 * the platform asks for it (422), a form the platform does not have is a 404.
 */
export async function withLeads<T>(
  services: Services,
  principal: Principal,
  id: string,
  call: (leads: Leads, account: AdapterAccount, row: Connection) => Promise<T>,
  part?: Part,
): Promise<T> {
  const row = await leadsConnection(services, principal, id);
  return withConnectedAccount(services, principal, row, 'leads', (adapter, account) => call(adapter.leads, account, row), {
    ...(part ? { part } : {}),
    unsupported: (platform) =>
      `${platform} lead forms are ${part === 'formLeads' ? 'not listed with their past leads' : 'made and archived in the platform\u2019s own tools only'}.`,
    scopes: services.platforms.get(row.platform)?.leads?.readScopes ?? [],
    handle: (error) => {
      if (error instanceof LeadFormNotFoundAtPlatform) throw new NotFoundError('lead form');
    },
  });
}
