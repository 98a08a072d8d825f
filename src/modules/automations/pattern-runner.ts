import { Worker } from 'node:worker_threads';

/**
 * How long the callers' patterns of one automation may take on one text. A pattern proven safe when it was saved
 * takes well under a millisecond on the 8,192 characters matched; one that backtracks all the same (saved before
 * the check, or that the checker misjudged) is stopped here instead of stalling the engine.
 */
export const PATTERN_DEADLINE_MS = 250;

const WORKER_URL = new URL('./pattern-worker.mjs', import.meta.url);

/** Pattern lists a thread keeps at most; past this many it is told to forget them all and is sent them again. */
const MAX_DEFINED = 10_000;

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
 * What a task posts: its texts, the pattern lists the thread has not been sent before (numbered), and each check
 * as two numbers, its text and its list. Every automation's list would otherwise be copied to the thread with
 * every message tried against it.
 */
interface Task {
  texts: string[];
  /** The thread forgets the lists it was sent before these. */
  reset: boolean;
  define: Array<{ id: number; patterns: PatternCheck['patterns'] }>;
  /** Check i: its text at 2i, its list at 2i + 1. */
  checks: Int32Array;
  progress: SharedArrayBuffer;
}

/**
 * Runs callers' regular expressions on a thread of its own, many checks in one task (a batch of messages, each
 * against every automation of its account: one round trip, not one per automation), one task at a time. A check
 * that makes no progress for PATTERN_DEADLINE_MS counts as matched by none: the thread, stuck in the pattern, is
 * terminated, and a new one goes on with the checks after it. The event loop never runs a caller's pattern, so
 * nothing a caller saved can keep the service from answering. A list of patterns (an automation's, compiled once
 * in the automation cache) is sent to a thread once and named by its number after that.
 */
class PatternRunner {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** The number the current thread knows each list by. */
  private defined = new WeakMap<PatternCheck['patterns'], number>();
  private definedCount = 0;

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
    const task = this.taskOf(texts, checks, progress);
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
      worker.postMessage(task, [task.checks.buffer as ArrayBuffer]);
    });
  }

  /** The task for the current thread: the lists it does not know yet defined, every check by number. */
  private taskOf(texts: string[], checks: PatternCheck[], progress: Int32Array): Task {
    const reset = this.definedCount >= MAX_DEFINED;
    if (reset) this.forget();
    const define: Task['define'] = [];
    const numbered = new Int32Array(2 * checks.length);
    checks.forEach(({ patterns, text }, index) => {
      let id = this.defined.get(patterns);
      if (id === undefined) {
        id = this.definedCount++;
        this.defined.set(patterns, id);
        define.push({ id, patterns });
      }
      numbered[2 * index] = text;
      numbered[2 * index + 1] = id;
    });
    return { texts, reset, define, checks: numbered, progress: progress.buffer as SharedArrayBuffer };
  }

  /** The lists are to be sent again: to a new thread, or to one told to forget them. */
  private forget(): void {
    this.defined = new WeakMap();
    this.definedCount = 0;
  }

  /** A thread that has loaded the patterns' module: its start-up is not counted against a check's deadline. */
  private start(): Promise<Worker> {
    this.forget();
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
