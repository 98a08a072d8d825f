import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches, dueRowIds } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { failed, type Outcome, outcomeOf } from './outcome.js';
import type { TaskRow } from './rows.js';
import { runTask } from './run.js';
import { AI_CHANNEL, announceFinished } from './tasks.js';

/** Due tasks are looked for at least this often, NOTIFY or not: retries and video polls coming due, a lost wake-up. */
const POLL_MS = 500;
const CLAIM_BATCH = 20;

/**
 * Runs AI tasks, draining `ai_tasks` as the publishing worker drains its targets: due tasks are claimed under a
 * lease (SKIP LOCKED), each turn calls the provider once (a video's turn creates its job or looks at it), and its
 * outcome is recorded — done, failed, retried later, or looked at again later — only while the task is still
 * `running` (a cancel wins). A worker that dies stops renewing; its tasks are taken over once their leases run
 * out, a video's by looking at the job it had started.
 */
export class AiTaskWork implements LeasedWork<TaskRow, Outcome> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.ai;
    this.settings = { name: 'socialgate-ai', channels: [AI_CHANNEL], concurrency, pollMs: POLL_MS, loops: 1, leaseSeconds };
  }

  turn(loop: ClaimLoop<TaskRow>): Promise<void> {
    return claimInBatches(loop, CLAIM_BATCH, POLL_MS, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<TaskRow[]> {
    if (n <= 0) return [];
    const { db } = this.services;
    return (await db('aiTasks')
      .whereIn('id', dueRowIds(db, 'aiTasks', ['queued', 'running'], n))
      .update({ status: 'running', lockedUntil: db.raw('now() + make_interval(secs => ?)', [this.services.config.ai.leaseSeconds]) })
      .returning('*')) as TaskRow[];
  }

  async process(task: TaskRow): Promise<Outcome> {
    if (Date.now() >= new Date(task.deadlineAt).getTime())
      return failed('timeout', `The model did not finish within the ${task.kind} deadline.`);
    try {
      return await runTask(this.services, task);
    } catch (error) {
      try {
        return await outcomeOf(error, task, this.services.config.ai);
      } catch {
        // A bug, not a provider's answer: the task fails visibly rather than being retried forever.
        this.services.logger.error({ err: error, taskId: task.id }, 'an AI task failed unexpectedly');
        return failed('provider_error', 'The task failed inside the service; report it with the task id.');
      }
    }
  }

  async record(task: TaskRow, outcome: Outcome): Promise<void> {
    const { db, usage } = this.services;
    const running = db('aiTasks').where({ id: task.id, status: 'running' });
    switch (outcome.kind) {
      case 'retry':
        await running.update({ attempts: task.attempts + 1, nextAttemptAt: outcome.at, lockedUntil: null });
        return;
      case 'poll':
        await running.update({ progress: outcome.progress, nextAttemptAt: outcome.at, lockedUntil: null });
        return;
      case 'failed':
        await running.update({ status: 'failed', error: JSON.stringify(outcome.error), completedAt: db.fn.now(), lockedUntil: null });
        announceFinished(task.id);
        return;
      case 'succeeded': {
        const updated = await running.update({
          status: 'succeeded',
          result: JSON.stringify(outcome.result),
          usage: JSON.stringify(outcome.usage),
          progress: 100,
          completedAt: db.fn.now(),
          lockedUntil: null,
        });
        if (updated === 0) return;
        announceFinished(task.id);
        usage.record(task.ownerId, task.profileId, 'aiGenerations', 1);
        const tokens = outcome.usage.inputTokens + outcome.usage.outputTokens;
        if (tokens > 0) usage.record(task.ownerId, task.profileId, 'aiTokens', tokens);
        if (outcome.usage.seconds > 0) usage.record(task.ownerId, task.profileId, 'aiSeconds', Math.ceil(outcome.usage.seconds));
        if (outcome.usage.images > 0) usage.record(task.ownerId, task.profileId, 'aiImages', outcome.usage.images);
      }
    }
  }

  async renew(tasks: TaskRow[]): Promise<void> {
    await this.services.db.raw(
      `UPDATE ai_tasks SET locked_until = now() + make_interval(secs => ?) WHERE id = ANY(?) AND status = 'running'`,
      [this.services.config.ai.leaseSeconds, tasks.map((task) => task.id)],
    );
  }

  describe(task: TaskRow): Record<string, unknown> {
    return { taskId: task.id, kind: task.kind, provider: task.provider };
  }
}
