// The thread of ./pattern-runner.ts, in plain JavaScript so that it starts under any loader. A task defines the
// pattern lists it names for the first time (by number; the runner numbers them for this thread), then, for each
// check (a text of the task's and a list, by their numbers) it writes, in the memory it shares with the runner,
// the index of the first pattern of the list that matches the text (or -1), then counts the check done; it posts
// once the task is done. `{ ready: true }` first.
import { parentPort } from 'node:worker_threads';

/** Each list the runner defined, compiled: null for a pattern that is not a regular expression (saved before it was validated: it never matches). */
/** @type {Map<number, Array<RegExp | null>>} */
const lists = new Map();

function compile(/** @type {string} */ source, /** @type {string} */ flags) {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

const port = parentPort;
port.on(
  'message',
  (
    /** @type {{ texts: string[], reset: boolean, define: { id: number, patterns: { source: string, flags: string }[] }[], checks: Int32Array, progress: SharedArrayBuffer }} */ task,
  ) => {
    if (task.reset) lists.clear();
    for (const { id, patterns } of task.define)
      lists.set(
        id,
        patterns.map(({ source, flags }) => compile(source, flags)),
      );
    const progress = new Int32Array(task.progress);
    const { checks, texts } = task;
    for (let index = 0; index < checks.length / 2; index += 1) {
      const text = texts[checks[2 * index]];
      const matched = lists.get(checks[2 * index + 1]).findIndex((pattern) => pattern?.test(text) ?? false);
      Atomics.store(progress, 1 + index, matched);
      Atomics.store(progress, 0, index + 1);
    }
    port.postMessage({ done: true });
  },
);
port.postMessage({ ready: true });
