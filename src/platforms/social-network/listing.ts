/** One page of a list the Graph pages with cursors. */
export interface Listed<T> {
  items: T[];
  nextCursor: string | null;
}

/** Graph's largest page of `/me/accounts` and `/me/adaccounts`; finding chosen items walks at most this many pages of them. */
export const SCAN_LIMIT = 100;
const SCAN_PAGES = 50;

/** The chosen items among all a list holds (walking its pages until all are found), by id; missing ones are absent. */
export async function findListed<T extends { id: string }>(
  ids: string[],
  read: (after?: string) => Promise<Listed<T>>,
): Promise<Map<string, T>> {
  const wanted = new Set(ids);
  const found = new Map<string, T>();
  let after: string | undefined;
  for (let round = 0; round < SCAN_PAGES; round += 1) {
    const batch = await read(after);
    for (const item of batch.items) if (wanted.has(item.id)) found.set(item.id, item);
    if (found.size === wanted.size || !batch.nextCursor) break;
    after = batch.nextCursor;
  }
  return found;
}
