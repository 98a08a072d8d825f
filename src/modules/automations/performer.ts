import type { Services } from '../../services.js';
import type { ActionOutcome, RunAction, RunRecord } from './records.js';

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

/** Performs one kind of action. */
export type Performer = (call: ActionCall) => Promise<Performed>;

export function succeeded(): Performed {
  return { status: 'succeeded', error: null };
}

export function failed(code: string, message: string, platformError: string | null = null): Performed {
  return { status: 'failed', error: { code, message, platformError } };
}

export function skipped(code: string, message: string): Performed {
  return { status: 'skipped', error: { code, message, platformError: null } };
}
