import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { IncomingMessage } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountsAddressedBy } from '../accounts/incoming.js';
import type { AccountRow } from '../accounts/models.js';
import type { IncomingComment } from '../../platforms/capabilities/webhooks.js';
import { type Armed, automationCache } from './cache.js';
import { MATCHED_TEXT_LIMIT } from './matcher.js';
import type { AutomationRecord, RunAction, TriggerType } from './records.js';
import { render } from './template.js';

/** NOTIFY'd when runs are started: the automation workers wake. */
export const RUNS_CHANNEL = 'socialgate_automation_runs';

/** A message or comment that may trigger automations, on one of our accounts. */
interface SourceItem {
  kind: 'message' | 'comment';
  triggerType: TriggerType;
  account: AccountRow;
  /** Our message id, or the platform's comment id. */
  sourceId: string;
  conversationId: string | null;
  platformPostId: string | null;
  personId: string;
  personName: string | null;
  text: string;
  writtenAt: Date;
}

type Start = 'started' | 'duplicate' | 'held_back';

/** The run is not started: the person is within the automation's cooldown, or it ran for them once already. */
class HeldBack extends Error {}

/**
 * Tries the account's active automations on the item in their order, and starts a run for each that matches,
 * until one with `stopOnMatch` has run (or had run for this item: a redelivery takes the same path). A run is
 * keyed by automation and item in the database, so an item seen twice starts nothing more.
 */
async function triggerAutomations(services: Services, armed: Armed[], item: SourceItem): Promise<void> {
  for (const { automation, matcher } of armed) {
    if (automation.triggerType !== item.triggerType) continue;
    if (item.platformPostId && automation.postIds.length > 0 && !automation.postIds.includes(item.platformPostId)) continue;
    const keyword = matcher.match(item.text);
    if (keyword === null) continue;
    const start = await startRun(services.db, automation, item, keyword === '' ? null : keyword);
    if (start !== 'held_back' && automation.stopOnMatch) break;
  }
}

function renderActions(automation: AutomationRecord, item: SourceItem, keyword: string | null): RunAction[] {
  const values = { name: item.personName ?? '', keyword: keyword ?? '', text: item.text };
  return automation.actions.map((action) => ('text' in action ? { type: action.type, text: render(action.text, values) } : action));
}

async function startRun(db: Knex, automation: AutomationRecord, item: SourceItem, keyword: string | null): Promise<Start> {
  try {
    return await db.transaction(async (trx) => {
      const [run] = (await trx('automationRuns')
        .insert({
          id: newId('arun'),
          automationId: automation.id,
          ownerId: automation.ownerId,
          profileId: automation.profileId,
          accountId: item.account.id,
          platform: item.account.platform,
          triggerType: item.triggerType,
          sourceKind: item.kind,
          sourceId: item.sourceId,
          conversationId: item.conversationId,
          platformPostId: item.platformPostId,
          personId: item.personId,
          personName: item.personName,
          text: item.text.slice(0, MATCHED_TEXT_LIMIT),
          matchedKeyword: keyword,
          actions: JSON.stringify(renderActions(automation, item, keyword)),
          status: 'running',
        })
        .onConflict(['automationId', 'sourceKind', 'sourceId'])
        .ignore()
        .returning('id')) as Array<{ id: string }>;
      if (!run) return 'duplicate';
      if (!(await passGate(trx, automation, item))) throw new HeldBack();
      // Wakes the workers when the run commits.
      await trx.raw('SELECT pg_notify(?, ?)', [RUNS_CHANNEL, '']);
      return 'started';
    });
  } catch (error) {
    if (error instanceof HeldBack) return 'held_back';
    throw error;
  }
}

/**
 * The person's cooldown and "once per person", in one statement (so two items of one person processed at once
 * cannot both pass): counted between the times the items were written, so a late redelivery decides as the
 * first delivery did.
 */
async function passGate(trx: Knex.Transaction, automation: AutomationRecord, item: SourceItem): Promise<boolean> {
  if (automation.cooldownSeconds === 0 && !automation.oncePerPerson) return true;
  const { rows } = (await trx.raw(
    `INSERT INTO automation_people (automation_id, account_id, person_id, last_source_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (automation_id, account_id, person_id) DO UPDATE SET last_source_at = excluded.last_source_at
     WHERE NOT ?::boolean AND automation_people.last_source_at + make_interval(secs => ?) <= excluded.last_source_at
     RETURNING 1`,
    [automation.id, item.account.id, item.personId, item.writtenAt, automation.oncePerPerson, automation.cooldownSeconds],
  )) as { rows: unknown[] };
  return rows.length > 0;
}

/**
 * A message a person sent to our accounts (the messaging area has stored it: areas run in order). Our own
 * messages (echoes, or the account writing as itself) never trigger anything, so automations cannot answer
 * each other.
 */
export async function automateMessage(services: Services, platform: string, message: IncomingMessage): Promise<void> {
  for (const account of await accountsAddressedBy(services.db, platform, message)) {
    if (account.platformAccountId !== null && message.from === account.platformAccountId) continue;
    const armed = await automationCache(services).forAccount(services.db, account.id);
    if (armed.length === 0) continue;
    const stored = (await services
      .db('messages')
      .where({ accountId: account.id, platformMessageId: message.platformMessageId })
      .first('id', 'conversationId', 'direction')) as { id: string; conversationId: string; direction: 'in' | 'out' } | undefined;
    if (!stored || stored.direction !== 'in') continue;
    await triggerAutomations(services, armed, {
      kind: 'message',
      triggerType: 'message_received',
      account,
      sourceId: stored.id,
      conversationId: stored.conversationId,
      platformPostId: null,
      personId: message.from,
      personName: message.fromName,
      text: message.text,
      writtenAt: message.sentAt,
    });
  }
}

/**
 * A comment on a post of our accounts: only a new one (`added`) by someone other than the account triggers (the
 * comments area has stored it first).
 */
export async function automateComment(services: Services, platform: string, comment: IncomingComment): Promise<void> {
  const author = comment.from;
  if (comment.change !== 'added' || !author) return;
  for (const account of await accountsAddressedBy(services.db, platform, comment)) {
    if (account.platformAccountId !== null && author.id === account.platformAccountId) continue;
    const armed = await automationCache(services).forAccount(services.db, account.id);
    if (armed.length === 0) continue;
    const conversation = (await services
      .db('conversations')
      .where({ accountId: account.id, platformConversationId: author.id })
      .first('id')) as { id: string } | undefined;
    await triggerAutomations(services, armed, {
      kind: 'comment',
      triggerType: 'comment_received',
      account,
      sourceId: comment.platformCommentId,
      conversationId: conversation?.id ?? null,
      platformPostId: comment.platformPostId,
      personId: author.id,
      personName: author.name ?? author.username,
      text: comment.text ?? '',
      writtenAt: comment.createdAt ?? comment.at,
    });
  }
}
