import { type PatternCheck, patternRunner } from './pattern-runner.js';

export type MatchType = 'exact' | 'contains' | 'regex';

export interface TriggerWords {
  keywords: string[];
  matchType: MatchType;
  caseSensitive: boolean;
}

/** Only this much of a message or comment is matched: a long text costs the same as a short one. */
export const MATCHED_TEXT_LIMIT = 8192;

/** A caller's pattern, as the pattern runner's thread compiles it. */
type CallersPattern = PatternCheck['patterns'][number];

/**
 * A trigger's keywords, compiled once. Ours (no keywords, or exact and contains, escaped) are matched here: `match`
 * answers (for a text cut to MATCHED_TEXT_LIMIT) the keyword that matched, `''` for no keywords, or null. A caller's regular expressions are matched on
 * the pattern runner's thread, never on the event loop (see `matchAll`).
 */
export type Matcher = { match(text: string): string | null } | { keywords: string[]; patterns: CallersPattern[] };

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

function bounded(text: string): string {
  return text.length > MATCHED_TEXT_LIMIT ? text.slice(0, MATCHED_TEXT_LIMIT) : text;
}

export function compileTrigger(trigger: TriggerWords): Matcher {
  if (trigger.keywords.length === 0) return { match: () => '' };
  const { matchType } = trigger;
  if (matchType === 'regex') {
    const flags = trigger.caseSensitive ? '' : 'i';
    return { keywords: trigger.keywords, patterns: trigger.keywords.map((source) => ({ source, flags })) };
  }
  const patterns = trigger.keywords.map((keyword) => ({ keyword, pattern: compile(keyword, matchType, trigger.caseSensitive) }));
  return { match: (text) => patterns.find(({ pattern }) => pattern.test(text))?.keyword ?? null };
}

/**
 * For each text, what each of its matchers answers (null where it has none): the keyword that matched, `''` for a
 * trigger without keywords, or null. `regex`: a caller's pattern matches somewhere; the callers' patterns of all
 * the texts go to the pattern runner's thread as one task.
 */
export async function matchAll(items: Array<{ text: string; matchers: Array<Matcher | null> }>): Promise<Array<Array<string | null>>> {
  const texts = items.map(({ text }) => bounded(text));
  const answers = items.map(({ matchers }, item) =>
    matchers.map((matcher) => (matcher && 'match' in matcher ? matcher.match(texts[item]!) : null)),
  );
  const callers = items.flatMap(({ matchers }, item) =>
    matchers.flatMap((matcher, index) => (matcher && 'patterns' in matcher ? [{ item, index, matcher }] : [])),
  );
  if (callers.length === 0) return answers;
  const matched = await patternRunner.firstMatching(
    texts,
    callers.map(({ item, matcher }) => ({ text: item, patterns: matcher.patterns })),
  );
  callers.forEach(({ item, index, matcher }, check) => {
    const first = matched[check];
    answers[item]![index] = first === null || first === undefined ? null : matcher.keywords[first]!;
  });
  return answers;
}
