// The thread of ./pattern-runner.ts, in plain JavaScript so that it starts under any loader. It answers, for each
// text it is given, the index of the first of the callers' patterns that matches, or -1; `{ ready: true }` first.
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
port.on('message', (/** @type {{ patterns: { source: string, flags: string }[], text: string }} */ { patterns, text }) => {
  port.postMessage({ index: patterns.findIndex(({ source, flags }) => compile(source, flags)?.test(text) ?? false) });
});
port.postMessage({ ready: true });
