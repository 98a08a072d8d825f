import { patternRunner } from './pattern-runner.js';

export type MatchType = 'exact' | 'contains' | 'regex';

export interface TriggerWords {
  keywords: string[];
  matchType: MatchType;
  caseSensitive: boolean;
}

/** Only this much of a message or comment is matched: a long text costs the same as a short one. */
export const MATCHED_TEXT_LIMIT = 8192;

/** A trigger's keywords, compiled once: `match` answers the keyword that matched, `''` for no keywords, or null. */
export interface Matcher {
  match(text: string): Promise<string | null>;
}

const WORD = String.raw`[\p{L}\p{N}_]`;

function escape(keyword: string): string {
  return keyword.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * `exact`: the trimmed text is the keyword; `contains`: the keyword stands as a whole word or phrase. Keywords are
 * escaped, so these patterns are ours and run here.
 */
function compile(keyword: string, matchType: Exclude<MatchType, 'regex'>, caseSensitive: boolean): RegExp {
  const fold = caseSensitive ? '' : 'i';
  const body = escape(keyword);
  if (matchType === 'exact') return new RegExp(`^\\s*${body}\\s*$`, `${fold}u`);
  return new RegExp(`(?<!${WORD})${body}(?!${WORD})`, `${fold}u`);
}

/** `regex`: a caller's pattern matches somewhere. It runs on the pattern runner's thread, never on the event loop. */
function callersPatterns(keywords: string[], caseSensitive: boolean): Matcher {
  const patterns = keywords.map((source) => ({ source, flags: caseSensitive ? '' : 'i' }));
  return {
    async match(text) {
      const index = await patternRunner.firstMatching({ patterns, text: bounded(text) });
      return index === null ? null : keywords[index]!;
    },
  };
}

function bounded(text: string): string {
  return text.length > MATCHED_TEXT_LIMIT ? text.slice(0, MATCHED_TEXT_LIMIT) : text;
}

export function compileTrigger(trigger: TriggerWords): Matcher {
  if (trigger.keywords.length === 0) return { match: () => Promise.resolve('') };
  const { matchType } = trigger;
  if (matchType === 'regex') return callersPatterns(trigger.keywords, trigger.caseSensitive);
  const patterns = trigger.keywords.map((keyword) => ({ keyword, pattern: compile(keyword, matchType, trigger.caseSensitive) }));
  return {
    match(text) {
      const matched = bounded(text);
      return Promise.resolve(patterns.find(({ pattern }) => pattern.test(matched))?.keyword ?? null);
    },
  };
}
