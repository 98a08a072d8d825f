import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Principal } from '../auth/principal.js';
import type { RunRecord } from './rows.js';
import { findAutomation } from './store.js';

type AutomationRun = components['schemas']['AutomationRun'];

function presentRun(run: RunRecord): AutomationRun {
  return {
    id: run.id,
    automationId: run.automationId,
    accountId: run.accountId,
    status: run.status,
    trigger: run.triggerType,
    source: {
      kind: run.sourceKind,
      id: run.sourceId,
      conversationId: run.sourceKind === 'message' ? run.conversationId : null,
      platformPostId: run.platformPostId,
    },
    from: { id: run.personId, name: run.personName },
    text: run.text,
    matchedKeyword: run.matchedKeyword,
    actions: run.actions.map((action, index) => {
      const outcome = run.outcomes[index];
      return outcome
        ? { type: action.type, status: outcome.status, error: outcome.error, finishedAt: outcome.finishedAt }
        : { type: action.type, status: 'pending', error: null, finishedAt: null };
    }),
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/** `GET /automations/{id}/runs`: the run log, newest first. */
export async function listRuns(
  db: Knex,
  principal: Principal,
  automationId: string,
  page: PageRequest,
  filters: { status?: RunRecord['status'] },
): Promise<Page<AutomationRun>> {
  await findAutomation(db, principal, automationId);
  const query = db('automationRuns')
    .where({ automationId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (filters.status) query.where({ status: filters.status });
  if (page.after) query.where('id', '<', page.after);
  return toPage((await query) as RunRecord[], page, presentRun);
}
