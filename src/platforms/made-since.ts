/** How far the platforms' clocks and ours may differ when an object made before a lost answer is looked for. */
const CLOCK_SLACK_MS = 60_000;

/**
 * Whether an object the platform says was made at `createdAt` (an ISO time; unparsable or absent is not) can be
 * the one an attempt that started at `since` made: a minute's slack, as the platform's clock and ours differ.
 */
export function madeSince(createdAt: string | null | undefined, since: Date): boolean {
  return Date.parse(createdAt ?? '') >= since.getTime() - CLOCK_SLACK_MS;
}
