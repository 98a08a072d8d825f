import { expect } from 'chai';
import type { ApiTest } from './harness.js';

export interface Page {
  data: any[];
  nextCursor: string | null;
}

/** A list with items made for the check. */
export interface Listed {
  /** The list's path, its query included (the check adds `limit` and `cursor`). */
  path: string;
  /** The items made, in the order the list shows them; it may show others too. */
  ids: string[];
  /** A filter (more of the query) and which of the items made it keeps, in order; it must keep no other. */
  filter?: { query: string; ids: string[] };
  /** The token to list with: the test's unrestricted key by default. */
  token?: string;
  /** Where the page is in the answer, when not at its top (`data`, `nextCursor`). */
  page?: (body: any) => Page;
  /** What names an item in `ids`: its `id` by default. */
  idOf?: (item: any) => string;
}

/** How many items each check makes, and the page size it walks with: at least three pages. */
const ITEMS = 5;
const LIMIT = 2;

/**
 * One test of a keyset-paginated list, after Svix's common list test. `make(count)` makes `count` items for the
 * test's owner. The check reads the whole list, then walks it `LIMIT` at a time by `nextCursor`: every page full
 * but the last, the cursor null on the last only, the same items in the same order with none twice or missing;
 * the items made in their order; `limit` 1 to 100 only; a cursor the service did not make refused; the filter.
 */
export function itPagesByKeyset(t: ApiTest, operation: string, make: (count: number) => Promise<Listed>): void {
  it(`${operation} — pages by keyset: full pages, cursors to the end with no gaps or repeats, in order, limit 1 to 100`, async () => {
    await checkPaging(t, await make(ITEMS), Buffer.from('v1:not_a_position').toString('base64url'));
  });
}

/**
 * The same test of a list read live from a platform (see platformPage): `make(count)` makes `count` items on the
 * platform, through the sandbox. The cursor must be ours: a platform's own page token (the Graph's `after`) is
 * refused before the platform is asked, never passed to it as a client wrote it.
 */
export function itPagesThroughPlatform(t: ApiTest, operation: string, make: (count: number) => Promise<Listed>): void {
  it(`${operation} — pages through the platform: its cursor inside ours, full pages to the end with no gaps or repeats, in order`, async () => {
    await checkPaging(t, await make(ITEMS), Buffer.from('after:2').toString('base64url'));
  });
}

/** The checks of both, with `forged`: a cursor the service did not make. */
async function checkPaging(t: ApiTest, listed: Listed, forged: string): Promise<void> {
  const idOf = listed.idOf ?? ((item: { id: string }) => item.id);
  const read = async (query: string): Promise<Page> => {
    const response = await t.app.api.get(withQuery(listed.path, query), { token: listed.token ?? t.owner.key });
    expect(response.status, `${listed.path} ${query}: ${JSON.stringify(response.body)}`).to.equal(200);
    return listed.page ? listed.page(response.body) : response.body;
  };
  const walk = async (query: string): Promise<string[]> => {
    const seen: string[] = [];
    for (let page = await read(`${query}limit=${LIMIT}`); ; page = await read(`${query}limit=${LIMIT}&cursor=${page.nextCursor}`)) {
      seen.push(...page.data.map(idOf));
      if (page.nextCursor === null) {
        expect(page.data.length, 'the last page').to.be.within(seen.length === 0 ? 0 : 1, LIMIT);
        return seen;
      }
      expect(page.data, `a page with a next cursor, after ${seen.length - page.data.length} items`).to.have.length(LIMIT);
      expect(seen.length, 'more pages than items').to.be.at.most(100);
    }
  };

  const whole = await read('limit=100');
  expect(whole.nextCursor, 'the whole list in one page').to.equal(null);
  const ids = whole.data.map(idOf);
  expect(
    ids.filter((id) => listed.ids.includes(id)),
    'the items made, in order',
  ).to.deep.equal(listed.ids);
  const walked = await walk('');
  expect(walked, 'the pages, one after another').to.deep.equal(ids);
  expect(new Set(walked).size, 'items listed twice').to.equal(walked.length);
  expect((await read('limit=1')).data.map(idOf)).to.deep.equal(ids.slice(0, 1));

  for (const limit of [0, 101]) {
    const refused = await t.app.api.get(withQuery(listed.path, `limit=${limit}`), { token: listed.token ?? t.owner.key });
    expect(refused.status, `limit=${limit}`).to.equal(400);
    expect(refused.body.errors[0].path).to.equal('query/limit');
  }
  const refused = await t.app.api.get(withQuery(listed.path, `cursor=${forged}`), { token: listed.token ?? t.owner.key });
  expect(refused.status, 'a cursor the service did not make').to.equal(400);
  expect(refused.body.errors[0].path).to.equal('query/cursor');

  if (listed.filter) expect(await walk(`${listed.filter.query}&`), `filtered by ${listed.filter.query}`).to.deep.equal(listed.filter.ids);
}

function withQuery(path: string, query: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}
