import { checkSync } from 'recheck';
import { invalidMember, RegexUnsafeError } from './errors.js';

export type MatchType = 'exact' | 'contains' | 'regex';

export interface TriggerWords {
  keywords: string[];
  matchType: MatchType;
  caseSensitive: boolean;
}

/** Only this much of a message or comment is matched: a long text costs the same as a short one. */
export const MATCHED_TEXT_LIMIT = 8192;
/** How long the ReDoS checker may think about one pattern; a pattern it cannot decide in time is refused. */
const CHECK_TIMEOUT_MS = 2000;

/** A trigger's keywords, compiled once: `match` answers the keyword that matched, `''` for no keywords, or null. */
export interface Matcher {
  match(text: string): string | null;
}

const WORD = String.raw`[\p{L}\p{N}_]`;

function escape(keyword: string): string {
  return keyword.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * `exact`: the trimmed text is the keyword; `contains`: the keyword stands as a whole word or phrase; `regex`: the
 * caller's pattern matches somewhere. Keywords are escaped for the first two, so only `regex` runs a caller's
 * pattern, and only one that passed `assertSafePatterns` when it was saved.
 */
function compile(keyword: string, matchType: MatchType, caseSensitive: boolean): RegExp {
  const fold = caseSensitive ? '' : 'i';
  if (matchType === 'regex') return new RegExp(keyword, fold);
  const body = escape(keyword);
  if (matchType === 'exact') return new RegExp(`^\\s*${body}\\s*$`, `${fold}u`);
  return new RegExp(`(?<!${WORD})${body}(?!${WORD})`, `${fold}u`);
}

export function compileTrigger(trigger: TriggerWords): Matcher {
  const patterns = trigger.keywords.map((keyword) => ({ keyword, pattern: compile(keyword, trigger.matchType, trigger.caseSensitive) }));
  return {
    match(text) {
      if (patterns.length === 0) return '';
      const bounded = text.length > MATCHED_TEXT_LIMIT ? text.slice(0, MATCHED_TEXT_LIMIT) : text;
      return patterns.find(({ pattern }) => pattern.test(bounded))?.keyword ?? null;
    },
  };
}

/**
 * Refuses, before an automation is saved, what could stall the engine: a pattern that is not an ECMAScript
 * regular expression (400), or one the ReDoS checker finds vulnerable or cannot prove safe in time (422
 * `regex_unsafe`, naming the pattern, the attack's growth and an input that shows it).
 */
export function assertSafePatterns(trigger: TriggerWords): void {
  if (trigger.matchType !== 'regex') return;
  trigger.keywords.forEach((pattern, index) => {
    const flags = trigger.caseSensitive ? '' : 'i';
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      throw invalidMember(`body/trigger/keywords/${index}`, `is not a valid regular expression: ${(error as Error).message}`);
    }
    const diagnostics = checkSync(pattern, flags, { timeout: CHECK_TIMEOUT_MS });
    if (diagnostics.status === 'safe') return;
    if (diagnostics.status === 'vulnerable') {
      const attack = diagnostics.attack.pattern;
      throw new RegexUnsafeError(
        index,
        pattern,
        `it can backtrack catastrophically (${diagnostics.complexity.summary} time on inputs such as ${attack}). Rewrite it without nested or overlapping repetition.`,
      );
    }
    throw new RegexUnsafeError(
      index,
      pattern,
      `it could not be proven safe from catastrophic backtracking (${diagnostics.error.kind}). Simplify it.`,
    );
  });
}
