import { ApiError } from '../../../lib/errors.js';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches, dueRowIds } from '../../../lib/lease-worker.js';
import type { Services } from '../../../services.js';
import { BOOSTS_CHANNEL, type BoostError, type BoostRow, type StepName, stepsOf } from './records.js';
import { deleteStep, makeStep } from './steps.js';

type Outcome =
  | { kind: 'made'; step: StepName; platformId: string; last: boolean }
  | { kind: 'refused'; step: StepName; error: BoostError }
  | { kind: 'deleted'; step: StepName }
  | { kind: 'rolled_back' }
  | { kind: 'later' };

const CLAIM_BATCH = 20;
/** A step failed for now is tried again after `retryMs`, doubled each time up to this many times. */
const MAX_DOUBLINGS = 6;

/** Boosts with a step due now or under way: what `quiescent()` waits for. */
export const BOOSTS_OUTSTANDING = `SELECT count(*) FROM ad_boosts WHERE status IN ('creating', 'rolling_back')
  AND (next_attempt_at <= now() OR locked_until > now())`;

/**
 * Failures that say the platform refused the step, or cannot be asked for this ad account until a person acts
 * (disabled, disconnected, a permission withdrawn): the boost is rolled back. The platform failing for now (a
 * 5xx, a lost answer, throttling) and a step whose earlier attempt still holds its lease are tried again.
 */
function refusal(error: ApiError): boolean {
  return error.status !== 429 && error.status !== 502 && error.code !== 'idempotency_key_in_use';
}

function boostError(error: ApiError, step: StepName): BoostError {
  const members = (error.extra.members ?? {}) as { platformCode?: number; platformSubcode?: number };
  return { code: error.code, detail: error.detail, step, ...members };
}

/**
 * Moves boosts on, one platform step per claim, so that whatever a crash interrupts is one step: a boost
 * `creating` has its next step marked `sending` (committed) and made through the ledger (a step whose answer was
 * lost, or whose worker died, is looked up on the platform when it is tried again, never made twice); the last
 * one made, the boost is `active` or `paused` as asked. A refused step turns the boost `rolling_back`: the steps
 * made are deleted one per claim, last first, and the boost is `failed` once nothing of it is left. A step the
 * platform failed for now is tried again later, backing off, for as long as it takes (a rollback waits for the
 * ad account to be reconnected this way).
 */
export class AdBoostWork implements LeasedWork<BoostRow, Outcome> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.adBoosts;
    this.settings = { name: 'socialgate-ad-boosts', channels: [BOOSTS_CHANNEL], concurrency, pollMs: 1000, loops: 1, leaseSeconds };
  }

  turn(loop: ClaimLoop<BoostRow>): Promise<void> {
    return claimInBatches(loop, CLAIM_BATCH, this.settings.pollMs, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<BoostRow[]> {
    if (n <= 0) return [];
    const { db } = this.services;
    return (await db('adBoosts')
      .whereIn('id', dueRowIds(db, 'adBoosts', ['creating', 'rolling_back'], n))
      .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [this.settings.leaseSeconds]) })
      .returning('*')) as BoostRow[];
  }

  async process(boost: BoostRow): Promise<Outcome> {
    const steps = await stepsOf(this.services.db, boost.id);
    if (boost.status === 'rolling_back') {
      const undo = [...steps].reverse().find((step) => step.state === 'done');
      if (!undo) return { kind: 'rolled_back' };
      try {
        await deleteStep(this.services, boost, undo.step, undo.platformId!);
        return { kind: 'deleted', step: undo.step };
      } catch (error) {
        if (error instanceof ApiError) return { kind: 'later' };
        throw error;
      }
    }
    const next = steps.find((step) => step.state !== 'done')!;
    // Recorded before it is sent: a restart finds the step begun, and its ledger write asks the platform first.
    await this.services
      .db('adBoostSteps')
      .where({ boostId: boost.id, step: next.step })
      .update({ state: 'sending', sentAt: this.services.db.fn.now() });
    try {
      const platformId = await makeStep(this.services, boost, next.step, steps);
      return { kind: 'made', step: next.step, platformId, last: next.position === steps.length - 1 };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return refusal(error) ? { kind: 'refused', step: next.step, error: boostError(error, next.step) } : { kind: 'later' };
    }
  }

  async record(boost: BoostRow, outcome: Outcome): Promise<void> {
    const { db, config } = this.services;
    await db.transaction(async (trx) => {
      const step = (name: StepName) => trx('adBoostSteps').where({ boostId: boost.id, step: name });
      const next = { lockedUntil: null, attempts: 0, nextAttemptAt: db.fn.now(), updatedAt: db.fn.now() };
      const held = trx('adBoosts').where({ id: boost.id, status: boost.status });
      switch (outcome.kind) {
        case 'made':
          await step(outcome.step).update({ state: 'done', platformId: outcome.platformId, doneAt: db.fn.now() });
          await held.update({
            ...next,
            ...(outcome.last ? { status: boost.plan.campaign.status === 'ACTIVE' ? 'active' : 'paused' } : {}),
          });
          break;
        case 'refused':
          await step(outcome.step).update({ state: 'refused' });
          await held.update({ ...next, status: 'rolling_back', error: JSON.stringify(outcome.error) });
          break;
        case 'deleted':
          await step(outcome.step).update({ state: 'deleted', deletedAt: db.fn.now() });
          await held.update(next);
          break;
        case 'rolled_back':
          await held.update({ ...next, status: 'failed' });
          break;
        case 'later': {
          const wait = config.adBoosts.retryMs * 2 ** Math.min(boost.attempts, MAX_DOUBLINGS);
          await held.update({ lockedUntil: null, attempts: boost.attempts + 1, nextAttemptAt: new Date(Date.now() + wait) });
          return;
        }
      }
      // The next step is due now: the worker (this one or another) takes it at once.
      await trx.raw(`NOTIFY ${BOOSTS_CHANNEL}`);
    });
  }

  async renew(boosts: BoostRow[]): Promise<void> {
    await this.services.db.raw(
      `UPDATE ad_boosts SET locked_until = now() + make_interval(secs => ?) WHERE id = ANY(?) AND status IN ('creating', 'rolling_back')`,
      [this.settings.leaseSeconds, boosts.map((boost) => boost.id)],
    );
  }

  describe(boost: BoostRow): Record<string, unknown> {
    return { boostId: boost.id, adAccountId: boost.adAccountId, status: boost.status };
  }
}
