/** The members of a Business Information `Location` a `readMask` may name. */
const LOCATION_FIELDS = new Set([
  'name',
  'languageCode',
  'storeCode',
  'title',
  'phoneNumbers',
  'categories',
  'storefrontAddress',
  'websiteUri',
  'regularHours',
  'specialHours',
  'serviceArea',
  'labels',
  'adWordsLocationExtensions',
  'latlng',
  'openInfo',
  'metadata',
  'profile',
  'relationshipData',
  'moreHours',
  'serviceItems',
]);

/** Member `path` (dotted) of `from`, copied into `to`. */
function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (!(head in from)) return;
  if (rest.length === 0) {
    to[head] = from[head];
    return;
  }
  const inner = from[head];
  if (typeof inner !== 'object' || inner === null) return;
  to[head] ??= {};
  copyPath(inner as Record<string, unknown>, to[head] as Record<string, unknown>, rest);
}

const pathsOf = (readMask: string) => readMask.split(',').map((path) => path.trim().split('.'));

/** Why Business Information refuses `readMask` (it is required, and names only a location's members): the field and why. */
export function readMaskRefusal(readMask: unknown): { field: string; description: string } | null {
  if (typeof readMask !== 'string' || readMask.trim() === '') return { field: 'read_mask', description: 'Field is required' };
  const unknown = pathsOf(readMask).find((path) => !LOCATION_FIELDS.has(path[0]!));
  return unknown ? { field: 'read_mask', description: `Invalid field mask provided: ${unknown.join('.')}` } : null;
}

/** A location as Business Information answers it for an accepted `readMask`: only the members named (dotted paths reach inside). */
export function masked(location: Record<string, unknown>, readMask: string): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const path of pathsOf(readMask)) copyPath(location, answer, path);
  return answer;
}
