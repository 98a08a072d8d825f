import type { Services } from '../../services.js';
import type { ActionOutcome, RunAction, RunRecord } from './rows.js';

/** What an action came to, before its time is recorded. */
export type Performed = Omit<ActionOutcome, 'finishedAt'>;

/** One action of one run, with the key its platform write goes through the ledger under. */
export interface ActionCall {
  services: Services;
  run: RunRecord;
  action: RunAction;
  /** `automation:<runId>:<actionIndex>`: the platform-write ledger sends a write once per key. */
  ledgerKey: string;
}

/**
 * The platform asked for the action to be tried again later (it throttles the account): nothing was done, and
 * `failure` is what the action comes to if it cannot be tried again.
 */
export interface Throttled {
  status: 'throttled';
  until: Date;
  failure: Performed;
}

/** Performs one kind of action. */
export type Performer = (call: ActionCall) => Promise<Performed | Throttled>;

export function succeeded(): Performed {
  return { status: 'succeeded', error: null };
}

export function failed(code: string, message: string, platformError: string | null = null): Performed {
  return { status: 'failed', error: { code, message, platformError } };
}

export function skipped(code: string, message: string): Performed {
  return { status: 'skipped', error: { code, message, platformError: null } };
}
