import { EventEmitter, once } from 'node:events';
import type { Db } from '../../db/database.js';
import { NotFoundError, ProfileOutOfScopeError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { pageRequest, toPage, type Page } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import { assertWithinPlan } from '../usage/limits.js';
import { assertProfileInScope, listedProfiles, profileScope, type Principal } from '../auth/principal.js';
import { findMedia, profileForUpload } from '../media/service.js';
import { AiTaskFinishedError, ReferenceMediaNotFoundError } from './errors.js';
import { planFor } from './parameters.js';
import { type AiTask, type AiTaskStatus, FINISHED, presentTask } from './present.js';
import type { TaskRow } from './rows.js';
import { registryOf } from './registry.js';
import type { AiKind } from './settings.js';

/** The worker's NOTIFY channel: a task accepted (or cancelled) wakes it at once. */
export const AI_CHANNEL = 'socialgate_ai_tasks';

type Input = AiTask['input'] & { prompt: string; model?: string; profileId?: string; imageMediaId?: string };

/**
 * Accepts a generation request: the model (named or its kind's default) must be offered now and take every
 * value asked for; the profile and reference image must be the caller's. The task is written `queued` with
 * what to ask the provider for, and the worker woken.
 */
export async function createTask(services: Services, principal: Principal, kind: AiKind, input: Input): Promise<TaskRow> {
  // The ids named are the caller's before anything else is judged (404, 403).
  const profileId = await profileForUpload(services.db, principal, input.profileId);
  if (input.imageMediaId) {
    await findMedia(services.db, principal, input.imageMediaId).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new ReferenceMediaNotFoundError(input.imageMediaId!) : error;
    });
  }
  const offered = await registryOf(services).resolve(kind, input.model);
  const plan = planFor(offered.model, input);
  const deadline = new Date(Date.now() + services.config.ai.deadlineSeconds[kind] * 1000);
  return services.db.transaction(async (trx) => {
    await assertWithinPlan(trx, services.config.usage, principal.ownerId, 'aiGenerations', 1);
    const [row] = (await trx('aiTasks')
      .insert({
        id: newId('task'),
        ownerId: principal.ownerId,
        profileId,
        kind,
        status: 'queued',
        provider: offered.provider.name,
        model: offered.model.id,
        input: JSON.stringify(input),
        plan: JSON.stringify(plan),
        deadlineAt: deadline,
      })
      .returning('*')) as TaskRow[];
    await trx.raw(`NOTIFY ${AI_CHANNEL}`);
    return row!;
  });
}

/** The owner's task, or 404; 403 outside a restricted key's profiles (or for a task of no profile). */
export async function findTask(db: Db, principal: Principal, id: string): Promise<TaskRow> {
  const row = (await db('aiTasks').where({ id, ownerId: principal.ownerId }).first()) as TaskRow | undefined;
  if (!row) throw new NotFoundError('AI task');
  if (row.profileId) assertProfileInScope(principal, row.profileId);
  else if (profileScope(principal))
    throw new ProfileOutOfScopeError('This task belongs to no profile; a profile-restricted API key cannot read it.');
  return row;
}

export async function listTasks(
  db: Db,
  principal: Principal,
  query: { kind?: AiKind; status?: AiTaskStatus; profileId?: string; limit?: number; cursor?: string },
): Promise<Page<AiTask>> {
  const page = pageRequest(query);
  const profiles = await listedProfiles(db, principal, query.profileId);
  const rows = db('aiTasks').where({ ownerId: principal.ownerId });
  if (profiles) rows.whereIn('profileId', profiles);
  if (query.kind) rows.where({ kind: query.kind });
  if (query.status) rows.where({ status: query.status });
  if (page.after) rows.where('id', '<', page.after);
  const found = (await rows.orderBy('id', 'desc').limit(page.limit + 1)) as TaskRow[];
  return toPage(found, page, presentTask);
}

/**
 * Cancels a queued or running task at once (the worker's answer for it, if any comes, is dropped), then deletes
 * its provider job where there is one. Cancelling a cancelled task answers it again.
 */
export async function cancelTask(services: Services, principal: Principal, id: string): Promise<TaskRow> {
  const found = await findTask(services.db, principal, id);
  if (found.status === 'cancelled') return found;
  if (FINISHED.includes(found.status)) throw new AiTaskFinishedError(found.status);
  const [row] = (await services
    .db('aiTasks')
    .where({ id })
    .whereIn('status', ['queued', 'running'])
    .update({ status: 'cancelled', completedAt: services.db.fn.now(), lockedUntil: null })
    .returning('*')) as TaskRow[];
  // Finished meanwhile: the worker's outcome stands.
  if (!row) return cancelTask(services, principal, id);
  if (row.providerJobId) await deleteProviderJob(services, row);
  return row;
}

async function deleteProviderJob(services: Services, row: TaskRow): Promise<void> {
  const registry = registryOf(services);
  const offered = registry.configured(row.provider, row.model);
  if (!offered) return;
  const client = await registry.client(offered.provider);
  await client.videos
    .delete(row.providerJobId!, { timeout: 10_000 })
    .catch((error: unknown) => services.logger.warn({ err: error, taskId: row.id }, 'the provider did not delete the cancelled video job'));
}

/** `wait=N` of a `Prefer` header, capped; null when absent. */
export function preferredWait(prefer: string | undefined, maxSeconds: number): number | null {
  const match = /(?:^|[,;\s])wait=(\d+)/i.exec(prefer ?? '');
  return match ? Math.min(Number(match[1]), maxSeconds) : null;
}

/**
 * Tasks this process finished, by id: a `Prefer: wait` in the process whose worker ran the task (`npm start` runs
 * both roles) answers at once; one in an API-only process finds out by reading the task.
 */
const finishedHere = new EventEmitter().setMaxListeners(0);

export function announceFinished(taskId: string): void {
  finishedHere.emit(taskId);
}

/** How often a waiting request reads its task, when no worker of its process announces it. */
const WAIT_READ_MS = 200;

/** The task once finished, or as it is when `seconds` run out. */
export async function waitForTask(db: Db, row: TaskRow, seconds: number): Promise<TaskRow> {
  const until = Date.now() + seconds * 1000;
  let current = row;
  while (!FINISHED.includes(current.status) && Date.now() < until) {
    const stop = new AbortController();
    const wait = Math.min(WAIT_READ_MS, Math.max(0, until - Date.now()));
    await Promise.race([
      once(finishedHere, row.id, { signal: stop.signal }).catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, wait)),
    ]);
    stop.abort();
    current = ((await db('aiTasks').where({ id: row.id }).first()) as TaskRow | undefined) ?? current;
  }
  return current;
}
