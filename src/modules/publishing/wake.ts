import type { Knex } from 'knex';
import type { Services } from '../../services.js';

/** Woken when targets become due now (a post published at once, a retry) or a due time arrives. */
export const POSTS_CHANNEL = 'socialgate_posts';
export const DUE_JOB = 'posts.due';

/** In the caller's transaction: NOTIFY is sent on commit only, so a rolled-back post wakes nobody. */
export async function notifyDue(trx: Knex | Knex.Transaction): Promise<void> {
  await trx.raw(`NOTIFY ${POSTS_CHANNEL}`);
}

/**
 * Asks Agenda to wake the publishing workers at `when`. Why Agenda only wakes and does not publish: one Agenda
 * job per post ran at about 500 jobs/s here, so 10,000 posts due in one minute would finish ~20 s late. The
 * targets table is the work queue instead (claimed under a lease with SKIP LOCKED, like webhook deliveries),
 * and Agenda keeps what it is good at: a durable timer, shared by every post due in the same second (`unique`
 * on the second), that fires at the due time in whichever worker holds it. The workers also look for due
 * targets every second, so a wake-up that failed to be scheduled only costs up to a second.
 */
export async function scheduleWake(services: Services, when: Date): Promise<void> {
  const second = new Date(Math.ceil(when.getTime() / 1000) * 1000);
  if (second.getTime() <= Date.now()) return;
  const at = second.toISOString();
  try {
    await services.scheduler.agenda.create(DUE_JOB, { at }).unique({ 'data.at': at }, { insertOnly: true }).schedule(second).save();
  } catch (error) {
    services.logger.warn({ err: error, at }, 'scheduling the publishing wake-up failed; the workers poll instead');
  }
}

/** The wake-up job: tell every worker, then forget the job (its table holds only wake-ups still to come). */
export async function runWake(services: Services, job: { remove(): Promise<unknown> }): Promise<void> {
  await notifyDue(services.db);
  await job.remove().catch(() => {});
}
