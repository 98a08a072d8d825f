import type { ClaimLoop } from '../../lib/lease-worker.js';
import { onePer } from '../../lib/memo.js';
import type { Services } from '../../services.js';
import type { RunRecord } from './rows.js';

/** Slots of this process's automation worker, held while a transaction inserts runs leased to it. */
export interface HeldSlots {
  /** How many of the runs may be inserted leased to this process's worker (0: none, the claims take them). */
  granted: number;
  /** The leased runs inserted, once their transaction has committed (none when it failed): the worker begins them. */
  hand(runs: RunRecord[]): void;
}

const NONE: HeldSlots = { granted: 0, hand: () => {} };

/**
 * This process's automation worker while it claims (its claim loop): the intake hands it the runs it starts,
 * leased to it in the statement that inserts them, as a claim would lease them, and begun once they are
 * committed. That spares each run a claim (an UPDATE of its row) and the intake a NOTIFY that every worker wakes
 * for. The slots are held from before the insert until the hand-over, so the worker never holds more than its
 * concurrency; with none free, or no worker in this process, the runs are left to the claims, as before. A
 * process that dies before the hand-over leaves runs whose lease runs out: another worker claims them then.
 */
export class RunHandoff {
  private loop: ClaimLoop<RunRecord> | null = null;

  /** `leaseSeconds`: the worker's lease, which the runs handed to it get as they are inserted. */
  constructor(readonly leaseSeconds: number) {}

  /** The worker claims through `loop` (from its first turn): runs may be handed to it. */
  attach(loop: ClaimLoop<RunRecord>): void {
    this.loop = loop;
  }

  /** The worker is closing: nothing more is handed to it. */
  detach(loop: ClaimLoop<RunRecord>): void {
    if (this.loop === loop) this.loop = null;
  }

  /**
   * Holds up to `wanted` free slots of the worker, until `hand`. The runs handed are begun by the worker as those
   * it claims are; a claim loop that has stopped claiming grants none.
   */
  async hold(wanted: number): Promise<HeldSlots> {
    const loop = this.loop;
    if (!loop || wanted <= 0) return NONE;
    let hand: (runs: RunRecord[]) => void = () => {};
    const handed = new Promise<RunRecord[]>((resolve) => (hand = resolve));
    const granted = await new Promise<number>((resolve) => {
      const claimed = loop.claim(wanted, (n) => {
        resolve(n);
        return handed;
      });
      // A loop that claims nothing any more never asks (0).
      claimed.then(
        () => resolve(0),
        () => resolve(0),
      );
    });
    if (granted === 0) hand([]);
    // Runs whose lease may be near its end are not begun: another claim may take them as it runs out.
    const leasedBy = Date.now() + (this.leaseSeconds * 1000) / 2;
    return { granted, hand: (runs) => hand(Date.now() < leasedBy ? runs : []) };
  }
}

/** The hand-off of this process's service. */
export const runHandoff = onePer((services: Services) => new RunHandoff(services.config.automations.leaseSeconds));
