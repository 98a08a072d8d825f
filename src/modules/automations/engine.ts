import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { IncomingMessage } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountsAddressedInBatch } from '../accounts/incoming.js';
import type { AccountRow } from '../accounts/models.js';
import { conversationsAt, storedMessages } from '../messaging/api.js';
import type { IncomingComment } from '../../platforms/capabilities/webhooks.js';
import { type Armed, automationCache } from './cache.js';
import { MATCHED_TEXT_LIMIT, matchAll } from './matcher.js';
import { performAsItStarts, performedAsItStarts } from './actions.js';
import { type FinishedRun, finishRuns } from './finish.js';
import { runHandoff } from './handoff.js';
import type { AutomationRecord, NewRunRow, RunAction, RunRecord, TriggerType } from './rows.js';
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

/** The run is not started: the person is within the automation's cooldown, or it ran for them once already. */
class HeldBack extends Error {}

/** An item, and the active automations of its account in the order they are tried. */
interface Armable {
  armed: Armed[];
  item: SourceItem;
}

/**
 * Tries each item's active automations in their order, and starts a run for each that matches, until one with
 * `stopOnMatch` has run (or had run for this item: a redelivery takes the same path). Every item's keywords are
 * matched first, the callers' patterns of all of them in one task of the pattern runner. A run is keyed by automation
 * and item in the database, so an item seen twice starts nothing more. Runs that no cooldown or "once per person"
 * holds back are started together, in one statement, when every item has been tried. A run whose actions touch
 * our records alone (a tag) is performed and finished here, in the transaction that stores its message or
 * comment; the others go to the automation workers (./worker.ts): leased in their insert to this process's
 * worker and handed to it once committed while it has slots free (./handoff.ts), else claimed after a NOTIFY.
 * `trx` is the intake's own transaction, not a savepoint: the hand-over waits for its commit.
 */
async function triggerAutomations(services: Services, trx: Knex.Transaction, work: Armable[]): Promise<void> {
  const ungated: NewRunRow[] = [];
  const started: RunRecord[] = [];
  const keywords = await matchAll(
    work.map(({ armed, item }) => ({
      text: item.text,
      matchers: armed.map(({ automation, matcher }) => (triggeredBy(automation, item) ? matcher : null)),
    })),
  );
  for (const [index, { armed, item }] of work.entries()) {
    for (const [tried, { automation }] of armed.entries()) {
      const keyword = keywords[index]![tried];
      if (keyword === null || keyword === undefined) continue;
      const run = runRow(automation, item, keyword === '' ? null : keyword);
      if (!isGated(automation)) ungated.push(run);
      else {
        const start = await startGatedRun(trx, automation, item, run);
        if (start === 'held_back') continue;
        if (start !== 'duplicate') started.push(start);
      }
      if (automation.stopOnMatch) break;
    }
  }
  const handoff = runHandoff(services);
  const forWorkers = ungated.filter((run) => !performedAsItStarts(run));
  const slots = await handoff.hold(forWorkers.length);
  const leased = new Set(forWorkers.slice(0, slots.granted).map((run) => run.id));
  if (ungated.length > 0) started.push(...(await insertRuns(trx, ungated, leased, handoff.leaseSeconds)));
  const handed = started.filter((run) => leased.has(run.id));
  // The intake's transaction: its runs are handed over once they are there for anyone to see.
  trx.executionPromise.then(
    () => slots.hand(handed),
    () => slots.hand([]),
  );
  await performOwnRecordsOnly(trx, started);
  // Wakes the workers when the runs left to them commit.
  if (started.some((run) => !performedAsItStarts(run) && !leased.has(run.id))) await trx.raw('SELECT pg_notify(?, ?)', [RUNS_CHANNEL, '']);
}

/** Whether the automation's trigger is of the item's kind, and names its post if it names any; its keywords aside. */
function triggeredBy(automation: AutomationRecord, item: SourceItem): boolean {
  if (automation.triggerType !== item.triggerType) return false;
  return !item.platformPostId || automation.postIds.length === 0 || automation.postIds.includes(item.platformPostId);
}

/**
 * Inserts runs, but those of an automation and an item that have one already, in one statement; those in `leased`
 * leased to this process's worker for `leaseSeconds`, as its claim would lease them (a first attempt). Answers
 * those inserted.
 */
async function insertRuns(trx: Knex.Transaction, runs: NewRunRow[], leased: Set<string>, leaseSeconds: number): Promise<RunRecord[]> {
  const { rows } = (await trx.raw(
    `INSERT INTO automation_runs (id, automation_id, owner_id, profile_id, account_id, platform, trigger_type, source_kind, source_id,
       conversation_id, platform_post_id, person_id, person_name, text, matched_keyword, actions, status, attempts, locked_until)
     SELECT r.id, r."automationId", r."ownerId", r."profileId", r."accountId", r.platform, r."triggerType", r."sourceKind", r."sourceId",
       r."conversationId", r."platformPostId", r."personId", r."personName", r.text, r."matchedKeyword", r.actions, r.status,
       CASE WHEN r.leased THEN 1 ELSE 0 END, CASE WHEN r.leased THEN now() + make_interval(secs => ?) END
     FROM jsonb_to_recordset(?::jsonb) AS r(id text, "automationId" text, "ownerId" text, "profileId" text, "accountId" text,
       platform text, "triggerType" text, "sourceKind" text, "sourceId" text, "conversationId" text, "platformPostId" text,
       "personId" text, "personName" text, text text, "matchedKeyword" text, actions jsonb, status text, leased boolean)
     ON CONFLICT (automation_id, source_kind, source_id) DO NOTHING
     RETURNING id, created_at AS "createdAt"`,
    [leaseSeconds, JSON.stringify(runs.map((run) => ({ ...run, leased: leased.has(run.id) })))],
  )) as { rows: Array<{ id: string; createdAt: Date }> };
  const byId = new Map(runs.map((run) => [run.id, run]));
  return rows.map(({ id, createdAt }) => ({
    ...byId.get(id)!,
    outcomes: [],
    attempts: leased.has(id) ? 1 : 0,
    createdAt,
    finishedAt: null,
  }));
}

/** Performs and finishes, in the transaction that started them, the runs whose actions touch our records alone. */
async function performOwnRecordsOnly(trx: Knex.Transaction, runs: RunRecord[]): Promise<void> {
  const finished: FinishedRun[] = [];
  for (const run of runs.filter(performedAsItStarts)) finished.push({ run, outcomes: await performAsItStarts(trx, run) });
  if (finished.length > 0) await finishRuns(trx, finished);
}

function runRow(automation: AutomationRecord, item: SourceItem, keyword: string | null): NewRunRow {
  return {
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
    actions: renderActions(automation, item, keyword),
    status: 'running',
  };
}

function renderActions(automation: AutomationRecord, item: SourceItem, keyword: string | null): RunAction[] {
  const values = { name: item.personName ?? '', keyword: keyword ?? '', text: item.text };
  return automation.actions.map((action) => ('text' in action ? { type: action.type, text: render(action.text, values) } : action));
}

/** Whether the automation holds runs back per person: a cooldown, or "once per person". */
function isGated(automation: AutomationRecord): boolean {
  return automation.cooldownSeconds > 0 || automation.oncePerPerson;
}

/** Starts a run the person's gate may hold back, in a savepoint of its own: held back, it leaves nothing. */
async function startGatedRun(
  trx: Knex.Transaction,
  automation: AutomationRecord,
  item: SourceItem,
  run: NewRunRow,
): Promise<RunRecord | 'duplicate' | 'held_back'> {
  try {
    return await trx.transaction(async (savepoint) => {
      const [inserted] = await insertRuns(savepoint, [run], new Set(), 0);
      if (!inserted) return 'duplicate';
      if (!(await passGate(savepoint, automation, item))) throw new HeldBack();
      return inserted;
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
  const { rows } = (await trx.raw(
    `INSERT INTO automation_people (automation_id, account_id, person_id, last_source_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (automation_id, account_id, person_id) DO UPDATE SET last_source_at = excluded.last_source_at
     WHERE NOT ?::boolean AND automation_people.last_source_at + make_interval(secs => ?) <= excluded.last_source_at
     RETURNING 1`,
    [automation.id, item.account.id, item.personId, item.writtenAt, automation.oncePerPerson, automation.cooldownSeconds],
  )) as { rows: unknown[] };
  return rows.length > 0;
}

/** The active automations of each account that has some, read once per account. */
async function armedAccounts(services: Services, trx: Knex.Transaction, accounts: AccountRow[]): Promise<Map<string, Armed[]>> {
  const armed = new Map<string, Armed[]>();
  for (const account of accounts) {
    if (armed.has(account.id)) continue;
    armed.set(account.id, await automationCache(services).forAccount(trx, account.id));
  }
  for (const [id, list] of armed) if (list.length === 0) armed.delete(id);
  return armed;
}

/**
 * The accounts each item is addressed to that have active automations, but for items the account wrote itself:
 * its own messages (echoes among them) and comments never trigger anything, so automations cannot answer each
 * other. With those accounts' automations, in the order they are tried.
 */
async function armedCandidates<T extends IncomingMessage | IncomingComment>(
  services: Services,
  trx: Knex.Transaction,
  platform: string,
  items: T[],
  authorOf: (item: T) => string,
): Promise<{ candidates: Array<{ account: AccountRow; item: T }>; armed: Map<string, Armed[]> }> {
  const addressed = (await accountsAddressedInBatch(trx, platform, items)).flatMap((accounts, index) =>
    accounts.flatMap((account) =>
      account.platformAccountId !== null && authorOf(items[index]!) === account.platformAccountId ? [] : [{ account, item: items[index]! }],
    ),
  );
  const armed = await armedAccounts(
    services,
    trx,
    addressed.map(({ account }) => account),
  );
  return { candidates: addressed.filter(({ account }) => armed.has(account.id)), armed };
}

/**
 * Messages people sent to our accounts (the messaging area has stored them: areas run in order). Our own
 * messages (echoes, or the account writing as itself) never trigger anything, so automations cannot answer
 * each other.
 */
export async function automateMessages(
  services: Services,
  platform: string,
  messages: IncomingMessage[],
  trx: Knex.Transaction,
): Promise<void> {
  const { candidates, armed } = await armedCandidates(services, trx, platform, messages, (message) => message.from);
  if (candidates.length === 0) return;
  const stored = await storedMessages(
    trx,
    candidates.map(({ account, item }) => [account.id, item.platformMessageId]),
  );
  const storedBy = new Map(stored.map((row) => [`${row.accountId}\u0000${row.platformMessageId}`, row]));
  const work = new Map<string, Armable>();
  for (const { account, item: message } of candidates) {
    const row = storedBy.get(`${account.id}\u0000${message.platformMessageId}`);
    if (!row || row.direction !== 'in' || work.has(row.id)) continue;
    work.set(row.id, {
      armed: armed.get(account.id)!,
      item: {
        kind: 'message',
        triggerType: 'message_received',
        account,
        sourceId: row.id,
        conversationId: row.conversationId,
        platformPostId: null,
        personId: message.from,
        personName: message.fromName,
        text: message.text,
        writtenAt: message.sentAt,
      },
    });
  }
  await triggerAutomations(services, trx, [...work.values()]);
}

/**
 * Comments on posts of our accounts: only a new one (`added`) by someone other than the account triggers (the
 * comments area has stored it first).
 */
export async function automateComments(
  services: Services,
  platform: string,
  comments: IncomingComment[],
  trx: Knex.Transaction,
): Promise<void> {
  const added = comments.filter((comment) => comment.change === 'added' && comment.from);
  const { candidates, armed } = await armedCandidates(services, trx, platform, added, (comment) => comment.from!.id);
  if (candidates.length === 0) return;
  const conversations = await conversationsAt(
    trx,
    candidates.map(({ account, item }) => [account.id, item.from!.id]),
  );
  const conversationOf = new Map(conversations.map((row) => [`${row.accountId}\u0000${row.platformConversationId}`, row.id]));
  await triggerAutomations(
    services,
    trx,
    candidates.map(({ account, item: comment }) => {
      const author = comment.from!;
      return {
        armed: armed.get(account.id)!,
        item: {
          kind: 'comment',
          triggerType: 'comment_received',
          account,
          sourceId: comment.platformCommentId,
          conversationId: conversationOf.get(`${account.id}\u0000${author.id}`) ?? null,
          platformPostId: comment.platformPostId,
          personId: author.id,
          personName: author.name ?? author.username,
          text: comment.text ?? '',
          writtenAt: comment.createdAt ?? comment.at,
        },
      };
    }),
  );
}
