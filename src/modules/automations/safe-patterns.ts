import { setMaxListeners } from 'node:events';
import type { Diagnostics } from 'recheck';
import { invalidMember, RegexUnsafeError, type UnsafePattern } from './errors.js';
import type { TriggerWords } from './matcher.js';

/**
 * How long one request may spend proving its patterns safe, all of them together (the contract allows 50): a
 * pattern still undecided then is refused, so no request costs more than this however many patterns it sends.
 */
export const PATTERNS_DEADLINE_MS = 3000;

/** Why a pattern the checker did not find safe is refused. */
function whyRefused(diagnostics: Diagnostics): string {
  if (diagnostics.status === 'vulnerable') {
    return `it can backtrack catastrophically (${diagnostics.complexity.summary} time on inputs such as ${diagnostics.attack.pattern}). Rewrite it without nested or overlapping repetition.`;
  }
  if (diagnostics.status === 'unknown' && (diagnostics.error.kind === 'timeout' || diagnostics.error.kind === 'cancel')) {
    return `it could not be proven safe from catastrophic backtracking within the ${PATTERNS_DEADLINE_MS / 1000} s a request may spend checking its patterns. Simplify it.`;
  }
  return `it could not be proven safe from catastrophic backtracking (${diagnostics.status === 'unknown' ? diagnostics.error.kind : diagnostics.status}). Simplify it.`;
}

/**
 * Refuses, before an automation is saved, what could stall the engine: a pattern that is not an ECMAScript
 * regular expression (400), or any the ReDoS checker finds vulnerable or cannot prove safe before the request's
 * deadline (one 422 `regex_unsafe` naming each, why, and an input that shows it). The checker runs outside the
 * event loop (recheck's own agent process, or its worker thread where the agent cannot start), so other requests
 * are answered meanwhile. It takes the patterns one after the other: all at once, the agent's threads took the
 * cores from the event loop. At the deadline the pattern being checked is cancelled, and the rest are not begun.
 */
export async function assertSafePatterns(trigger: TriggerWords): Promise<void> {
  if (trigger.matchType !== 'regex' || trigger.keywords.length === 0) return;
  const flags = trigger.caseSensitive ? '' : 'i';
  trigger.keywords.forEach((pattern, index) => {
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      throw invalidMember(`body/trigger/keywords/${index}`, `is not a valid regular expression: ${(error as Error).message}`);
    }
  });
  const deadline = AbortSignal.timeout(PATTERNS_DEADLINE_MS);
  // recheck listens for the abort once per pattern, and never stops listening.
  setMaxListeners(trigger.keywords.length + 1, deadline);
  // The checker loads on the first regex trigger saved, not at every start.
  const { check } = await import('recheck');
  const verdicts: Diagnostics[] = [];
  for (const pattern of trigger.keywords) verdicts.push(await check(pattern, flags, { timeout: PATTERNS_DEADLINE_MS, signal: deadline }));
  const refused: UnsafePattern[] = verdicts.flatMap((diagnostics, index) =>
    diagnostics.status === 'safe' ? [] : [{ index, pattern: trigger.keywords[index]!, why: whyRefused(diagnostics) }],
  );
  if (refused.length > 0) throw new RegexUnsafeError(refused);
}
