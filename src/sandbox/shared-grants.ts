/**
 * Grants that several entries of a platform's state point to (a code, the access tokens and the refresh token one
 * authorization issued), written once and named by their number, so that they are still one object once read back:
 * revoking the grant through one of its tokens still revokes all of them after a restart.
 */
export class GrantNumbers<G> {
  readonly grants: G[] = [];

  /** The grant's number, listing it the first time it is met. */
  numberOf(grant: G): number {
    const known = this.grants.indexOf(grant);
    return known >= 0 ? known : this.grants.push(grant) - 1;
  }

  /** The entries, each with its grant named by its number. */
  named<E extends { grant: G }>(entries: Map<string, E>): Map<string, Omit<E, 'grant'> & { grant: number }> {
    return new Map([...entries].map(([key, entry]) => [key, { ...entry, grant: this.numberOf(entry.grant) }]));
  }
}

/** The entries as they were written by `GrantNumbers.named`, each with its grant back from `grants`. */
export function withGrants<G, E extends { grant: number }>(
  entries: Map<string, E>,
  grants: G[],
): Map<string, Omit<E, 'grant'> & { grant: G }> {
  return new Map([...entries].map(([key, entry]) => [key, { ...entry, grant: grants[entry.grant]! }]));
}
