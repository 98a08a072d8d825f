import { Worker } from 'node:worker_threads';

/**
 * How long the callers' patterns of one automation may take on one text. A pattern proven safe when it was saved
 * takes well under a millisecond on the 8,192 characters matched; one that backtracks all the same (saved before
 * the check, or that the checker misjudged) is stopped here instead of stalling the engine.
 */
export const PATTERN_DEADLINE_MS = 250;

const WORKER_URL = new URL('./pattern-worker.mjs', import.meta.url);

/** One automation's patterns to try, in order, on one of a task's texts (its index). */
export interface PatternCheck {
  patterns: { source: string; flags: string }[];
  text: number;
}

/**
 * The checks of one task and what the thread has done of them, in memory the thread shares: slot 0 counts the
 * checks finished, slot 1 + i holds check i's answer (the index of its first pattern that matched, -1: none). A
 * thread stuck in a pattern cannot post what it did before; this it has written already.
 */
function progressOf(checks: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * (checks + 1)));
}

/**
 * Runs callers' regular expressions on a thread of its own, many checks in one task (a batch of messages, each
 * against every automation of its account: one round trip, not one per automation), one task at a time. A check
 * that makes no progress for PATTERN_DEADLINE_MS counts as matched by none: the thread, stuck in the pattern, is
 * terminated, and a new one goes on with the checks after it. The event loop never runs a caller's pattern, so
 * nothing a caller saved can keep the service from answering.
 */
class PatternRunner {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  /** For each check, the index of its first pattern that matches its text, or null (none did, or not before the deadline). */
  firstMatching(texts: string[], checks: PatternCheck[]): Promise<Array<number | null>> {
    const run = this.queue.then(() => this.run(texts, checks));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(texts: string[], checks: PatternCheck[]): Promise<Array<number | null>> {
    const answers: Array<number | null> = [];
    while (answers.length < checks.length) {
      const left = checks.slice(answers.length);
      const progress = progressOf(left.length);
      const stuck = await this.task(texts, left, progress);
      const done = stuck ?? left.length;
      for (let i = 0; i < done; i += 1) answers.push(progress[1 + i]! < 0 ? null : progress[1 + i]!);
      if (stuck !== null) answers.push(null);
    }
    return answers;
  }

  /** Hands the checks to the thread; answers the index of the one it was stopped stuck in, or null: all were done. */
  private async task(texts: string[], checks: PatternCheck[], progress: Int32Array): Promise<number | null> {
    const worker = await (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      let seen = 0;
      const settle = () => {
        clearInterval(watchdog);
        worker.off('message', answered).off('error', failed);
      };
      const answered = () => {
        settle();
        resolve(null);
      };
      const failed = (error: Error) => {
        settle();
        this.discard(worker);
        reject(error);
      };
      // Each check under way at a look and still at the next had the whole period: it is stuck.
      const watchdog = setInterval(() => {
        const done = Atomics.load(progress, 0);
        if (done !== seen) {
          seen = done;
          return;
        }
        settle();
        this.discard(worker);
        resolve(done);
      }, PATTERN_DEADLINE_MS);
      worker.on('message', answered).on('error', failed);
      worker.postMessage({ texts, checks, progress: progress.buffer });
    });
  }

  /** A thread that has loaded the patterns' module: its start-up is not counted against a check's deadline. */
  private start(): Promise<Worker> {
    const worker = new Worker(WORKER_URL);
    // An idle thread does not keep the process alive.
    worker.unref();
    return new Promise((resolve, reject) => {
      worker.once('message', () => {
        worker.off('error', reject);
        resolve(worker);
      });
      worker.once('error', reject);
    }).catch((error: unknown) => {
      this.worker = null;
      throw error;
    }) as Promise<Worker>;
  }

  private discard(worker: Worker): void {
    this.worker = null;
    void worker.terminate();
  }
}

/** This process's runner: patterns are few and rarely used, so one thread serves all the service's automations. */
export const patternRunner = new PatternRunner();
