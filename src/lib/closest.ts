/** Edits (insert, delete, replace, swap two neighbours) that turn one word into the other. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The word a person probably meant: the nearest candidate, compared without regard to case, when at most a third
 * of it (and at least two characters' worth) differs. None when nothing is that close.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const given = word.toLowerCase();
  let best: { candidate: string; edits: number } | undefined;
  for (const candidate of candidates) {
    const edits = distance(given, candidate.toLowerCase());
    if (edits <= Math.max(2, Math.floor(candidate.length / 3)) && (!best || edits < best.edits)) best = { candidate, edits };
  }
  return best?.candidate;
}
