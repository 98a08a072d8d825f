import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { decodeKeyset, keysetPage, type Page } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { leadsConnection } from './access.js';
import { LeadStateChangedError } from './errors.js';
import type { LeadRow, LeadStateChangeRow } from './rows.js';

type LeadState = components['schemas']['LeadState'];
type LeadStateDetail = components['schemas']['LeadStateDetail'];
type LeadStateUpdate = components['schemas']['LeadStateUpdate'];

const HISTORY = 100;

export function presentState(row: LeadRow): LeadState {
  return {
    leadId: row.id,
    accountId: row.accountId,
    formId: row.formId,
    state: row.state,
    note: row.note,
    assignee: row.assignee,
    version: row.stateVersion,
    updatedBy: row.stateUpdatedBy,
    updatedAt: row.stateUpdatedAt.toISOString(),
  };
}

/** The `ETag` of a lead's state: its version, quoted. */
export const etagOf = (row: { stateVersion: number }) => `"${row.stateVersion}"`;

/** Who made a change: the API key, or the owner (signed in, or through the service). */
function actorOf(principal: Principal): string {
  return principal.kind === 'apiKey' ? principal.keyId : principal.ownerId;
}

/** The states of the connection's leads, most recently changed first (keyset on the change time and the id). */
export async function listStates(
  services: Services,
  principal: Principal,
  id: string,
  query: { limit?: number; cursor?: string; state?: LeadState['state']; formId?: string },
): Promise<Page<LeadState>> {
  const row = await leadsConnection(services, principal, id);
  const limit = query.limit ?? 20;
  const after = decodeKeyset(query.cursor, ['time', 'id']);
  const listed = services
    .db('leads')
    .where({ accountId: row.id })
    .orderBy([
      { column: 'stateUpdatedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit + 1);
  if (query.state) listed.where({ state: query.state });
  if (query.formId) listed.where({ formId: query.formId });
  if (after) listed.whereRaw('(state_updated_at, id) < (?, ?)', after as [string, string]);
  const page = keysetPage((await listed) as LeadRow[], limit, (lead) => [lead.stateUpdatedAt.toISOString(), lead.id]);
  return { data: page.rows.map(presentState), nextCursor: page.nextCursor };
}

async function leadOf(services: Services, principal: Principal, id: string, leadId: string): Promise<LeadRow> {
  const row = await leadsConnection(services, principal, id);
  const lead = (await services.db('leads').where({ accountId: row.id, id: leadId }).first()) as LeadRow | undefined;
  if (!lead) throw new NotFoundError('lead');
  return lead;
}

export async function getState(
  services: Services,
  principal: Principal,
  id: string,
  leadId: string,
): Promise<{ detail: LeadStateDetail; etag: string }> {
  const lead = await leadOf(services, principal, id, leadId);
  const history = (await services
    .db('leadStateChanges')
    .where({ leadId: lead.id })
    .orderBy('version', 'desc')
    .limit(HISTORY)) as LeadStateChangeRow[];
  return {
    detail: {
      ...presentState(lead),
      history: history.map((change) => ({
        version: change.version,
        state: change.state,
        note: change.note,
        assignee: change.assignee,
        changedBy: change.changedBy,
        changedAt: change.changedAt.toISOString(),
      })),
    },
    etag: etagOf(lead),
  };
}

/**
 * Moves a lead: under a lock of its row, so two changes are one after the other; with `ifMatch`, only from that
 * version (412 otherwise). A change that changes nothing is no new version; any other is kept in the history.
 */
export async function updateState(
  services: Services,
  principal: Principal,
  id: string,
  leadId: string,
  update: LeadStateUpdate,
  ifMatch: string | undefined,
): Promise<{ state: LeadState; etag: string }> {
  const { id: accountId } = await leadsConnection(services, principal, id);
  return services.db.transaction(async (trx) => {
    const lead = (await trx('leads').where({ accountId, id: leadId }).forUpdate().first()) as LeadRow | undefined;
    if (!lead) throw new NotFoundError('lead');
    if (ifMatch !== undefined && ifMatch.replace(/^W\//, '') !== etagOf(lead))
      throw new LeadStateChangedError(lead.id, ifMatch, lead.stateVersion);
    const next = {
      state: update.state ?? lead.state,
      note: update.note === undefined ? lead.note : update.note,
      assignee: update.assignee === undefined ? lead.assignee : update.assignee,
    };
    if (next.state === lead.state && next.note === lead.note && next.assignee === lead.assignee)
      return { state: presentState(lead), etag: etagOf(lead) };
    const changedBy = actorOf(principal);
    const version = lead.stateVersion + 1;
    const [changed] = (await trx('leads')
      .where({ id: lead.id })
      .update({ ...next, stateVersion: version, stateUpdatedBy: changedBy, stateUpdatedAt: trx.fn.now() })
      .returning('*')) as LeadRow[];
    await trx('leadStateChanges').insert({ leadId: lead.id, version, ...next, changedBy });
    return { state: presentState(changed!), etag: etagOf(changed!) };
  });
}
