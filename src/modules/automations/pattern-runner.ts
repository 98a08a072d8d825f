import { Worker } from 'node:worker_threads';

/**
 * How long the callers' patterns may take on one text. A pattern proven safe when it was saved takes well under a
 * millisecond on the 8,192 characters matched; one that backtracks all the same (saved before the check, or that
 * the checker misjudged) is stopped here instead of stalling the engine.
 */
export const PATTERN_DEADLINE_MS = 250;

const WORKER_URL = new URL('./pattern-worker.mjs', import.meta.url);

/** A text and the callers' patterns to try on it, in order. */
export interface PatternTask {
  patterns: { source: string; flags: string }[];
  text: string;
}

/** What the thread says: it can take tasks, or the index of the first pattern that matched (-1: none). */
type PatternAnswer = { ready: true } | { index: number };

/**
 * Runs callers' regular expressions on a thread of its own, one text at a time, each within PATTERN_DEADLINE_MS:
 * a text whose patterns outrun it counts as matched by none, and the thread, stuck in the pattern, is terminated
 * and started again for the next text. The event loop never runs a caller's pattern, so nothing a caller saved
 * can keep the service from answering.
 */
class PatternRunner {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  /** The index of the first pattern that matches the text, or null (none did, or not before the deadline). */
  firstMatching(task: PatternTask): Promise<number | null> {
    const run = this.queue.then(() => this.run(task));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(task: PatternTask): Promise<number | null> {
    const worker = await (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(deadline);
        worker.off('message', answered).off('error', failed);
      };
      const answered = (answer: PatternAnswer) => {
        if (!('index' in answer)) return;
        settle();
        resolve(answer.index < 0 ? null : answer.index);
      };
      const failed = (error: Error) => {
        settle();
        this.discard(worker);
        reject(error);
      };
      const deadline = setTimeout(() => {
        settle();
        this.discard(worker);
        resolve(null);
      }, PATTERN_DEADLINE_MS);
      worker.on('message', answered).on('error', failed);
      worker.postMessage(task);
    });
  }

  /** A thread that has loaded the patterns' module: its start-up is not counted against a text's deadline. */
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
