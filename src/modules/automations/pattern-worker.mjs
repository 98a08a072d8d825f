// The thread of ./pattern-runner.ts, in plain JavaScript so that it starts under any loader. For each check of a
// task it writes, in the memory it shares with the runner, the index of the first of the callers' patterns that
// matches the check's text (one of the task's, by its index; or -1), then counts the check done; it posts once the task is done. `{ ready: true }` first.
import { parentPort } from 'node:worker_threads';

/** Patterns compiled once per thread; past this many the thread starts again from none. */
const MAX_COMPILED = 10_000;
/** @type {Map<string, RegExp | null>} */
const compiled = new Map();

/** The pattern compiled, or null for one that is not a regular expression (saved before it was validated: it never matches). */
function compile(/** @type {string} */ source, /** @type {string} */ flags) {
  const key = `${flags}/${source}`;
  if (compiled.has(key)) return compiled.get(key);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  let pattern = null;
  try {
    pattern = new RegExp(source, flags);
  } catch {
    pattern = null;
  }
  compiled.set(key, pattern);
  return pattern;
}

const port = parentPort;
port.on(
  'message',
  (
    /** @type {{ texts: string[], checks: { patterns: { source: string, flags: string }[], text: number }[], progress: SharedArrayBuffer }} */ task,
  ) => {
    const progress = new Int32Array(task.progress);
    task.checks.forEach(({ patterns, text }, index) => {
      const matched = patterns.findIndex(({ source, flags }) => compile(source, flags)?.test(task.texts[text]) ?? false);
      Atomics.store(progress, 1 + index, matched);
      Atomics.store(progress, 0, index + 1);
    });
    port.postMessage({ done: true });
  },
);
port.postMessage({ ready: true });
