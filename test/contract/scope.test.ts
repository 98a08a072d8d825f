import { expect } from 'chai';
import { unbuiltOperations } from '../../src/modules/index.js';
import { testAiSettings } from '../modules/ai/support.js';
import { describeApi } from '../support/harness.js';
import { newOwner, restrictedKey, type TestOwner } from '../support/owners.js';
import { contractOperations, type ContractOperation, type IdField } from './id-fields.js';
import { MAKERS, World } from './scope-objects.js';

/**
 * Every id a request names, in its path, query or body (nested members and arrays too), read from the contract:
 * each is tried with (a) an object of another profile of the owner, with a key restricted to the first profile:
 * 403 (404 where it is looked up in a parent the request names too, `under` in scope-objects.ts), and (b) an
 * object of another owner, with the owner's unrestricted key: 404 (for a member of the body also 422 with a
 * `…_not_found` or `unknown_…` code). The rest of each request is the contract's example, its ids the first
 * profile's own objects. A new member is tried as soon as the contract has it; a new kind of id fails until
 * scope-objects.ts knows how to make one; an operation not built yet is listed as pending until it is.
 */

/** The tables a refused request must leave as they were. */
const TABLES = [
  ...['profiles', 'accounts', 'ad_accounts', 'api_keys', 'posts', 'queue_slots', 'media', 'ai_tasks', 'platform_writes'],
  ...['conversations', 'messages', 'comments', 'automations', 'wallet_programs', 'wallet_passes', 'hooks'],
];

/** Bodies the contract's examples do not show, for members inside another choice of the body (tried first). */
const MORE_BODIES: Record<string, unknown[]> = {
  sendChatappMessage: [
    ...['image', 'document', 'audio', 'video'].map((type) => ({ to: '+4915112345678', type, [type]: { mediaId: 'media_' } })),
    {
      to: '+4915112345678',
      type: 'template',
      template: {
        name: 'order_shipped',
        language: 'en_US',
        components: [{ type: 'header', parameters: [{ type: 'image', mediaId: 'media_' }] }],
      },
    },
  ],
  enqueuePost: [{ postId: 'post_' }],
  createAdCreative: ['photoData', 'videoData'].map((data) => ({
    adAccountId: 'adacc_',
    name: 'Creative',
    objectStorySpec: { pageId: '1', [data]: { mediaId: 'media_' } },
  })),
  connectQrchat: [{ profileId: 'prof_', accountId: 'acc_' }],
  createAdSet: [
    {
      adAccountId: 'adacc_',
      campaignId: '120210000000000001',
      name: 'Catalog sales',
      optimizationGoal: 'OFFSITE_CONVERSIONS',
      targeting: { geoLocations: { countries: ['DE'] } },
      promotedObject: { productSetId: 'pset_' },
    },
  ],
};

/** Operations whose account (`acc_` in the path) must be of another kind than a page for the ids behind it to be read. */
const ACCOUNT_KINDS: Record<string, string> = { sendChatappMessage: 'acc:chatapp' };

const OUR_ID = /^([a-z]+)_(?:[0-9a-z]{26})?$/;

interface Places {
  mine: TestOwner;
  otherProfile: TestOwner;
  otherOwner: TestOwner;
  restricted: string;
}

type Ids = (kind: string) => Promise<string>;

/** A body's example with each of our ids replaced by the object of its kind. */
async function withIds(value: unknown, ids: Ids): Promise<unknown> {
  if (typeof value === 'string') {
    const kind = OUR_ID.exec(value)?.[1];
    return kind && kind in MAKERS && MAKERS[kind] ? ids(kind) : value;
  }
  // An example's several ids of one kind become the one object of that kind.
  if (Array.isArray(value)) return [...new Set(await Promise.all(value.map((item) => withIds(item, ids))))];
  if (value && typeof value === 'object') {
    return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([name, member]) => [name, await withIds(member, ids)])));
  }
  return value;
}

/** The example's times moved together, the earliest a day from now (a post is scheduled ahead, a pass expires later). */
function ahead(body: unknown): unknown {
  const text = JSON.stringify(body);
  const times = [...text.matchAll(/"(\d{4}-\d\d-\d\dT[^"]+)"/g)].map((match) => Date.parse(match[1]!)).filter((time) => !isNaN(time));
  if (times.length === 0) return body;
  const shift = Math.max(0, Date.now() + 86_400_000 - Math.min(...times));
  return JSON.parse(
    text.replace(/"(\d{4}-\d\d-\d\dT[^"]+)"/g, (whole, time: string) =>
      isNaN(Date.parse(time)) ? whole : `"${new Date(Date.parse(time) + shift).toISOString().replace('.000Z', 'Z')}"`,
    ),
  );
}

/** `body` with the member at `path` (`a.b`, `*` an array's items) set to `id`, its containers made where missing. */
function setMember(body: Record<string, unknown>, path: string[], id: string): void {
  const [name, ...rest] = path;
  if (rest[0] === '*') {
    if (rest.length === 1) body[name!] = [id];
    else {
      const items = Array.isArray(body[name!]) && (body[name!] as unknown[]).length > 0 ? (body[name!] as Record<string, unknown>[]) : [{}];
      setMember(items[0]!, rest.slice(1), id);
      body[name!] = items;
    }
  } else if (rest.length === 0) body[name!] = id;
  else {
    body[name!] ??= {};
    setMember(body[name!] as Record<string, unknown>, rest, id);
  }
}

/** Whether the body shows the object that holds the member (so that setting it keeps the body's choice). */
function shows(body: unknown, path: string[]): boolean {
  const holder = path.at(-1) === '*' ? path.slice(0, -2) : path.slice(0, -1);
  return has(body, holder);
}

function has(value: unknown, path: string[]): boolean {
  if (path.length === 0) return value !== undefined;
  const [name, ...rest] = path;
  if (name === '*') return Array.isArray(value) && value.some((item) => has(item, rest));
  return typeof value === 'object' && value !== null && has((value as Record<string, unknown>)[name!], rest);
}

/** The request for `operation` with the place's objects, and `tried` (one of its id fields) set to `id`. */
async function requestFor(operation: ContractOperation, ids: Ids, tried: IdField, id: string) {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const field of operation.idFields.filter((f) => f.in !== 'body')) {
    const value = field === tried ? id : await ids(field.kind);
    if (field.in === 'path') path = path.replace(`{${field.name}}`, value);
    else query.set(field.name, value);
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(parameter.value));
    else if (parameter.required) query.set(parameter.name, parameter.value);
  }
  let body: unknown;
  const bodies = [...(MORE_BODIES[operation.operationId] ?? []), ...operation.bodies];
  if (bodies.length > 0) {
    const members = tried.in === 'body' ? tried.name.split('.') : [];
    const base = bodies.find((candidate) => shows(candidate, members));
    if (!base) throw new Error(`no example body of ${operation.operationId} shows ${tried.name}: add one to MORE_BODIES`);
    body = await withIds(ahead(structuredClone(base)), ids);
    if (tried.in === 'body') setMember(body as Record<string, unknown>, members, id);
  }
  return { method: operation.method, path: query.size > 0 ? `${path}?${query}` : path, body };
}

describeApi('every id a request names is checked against the caller', { settings: testAiSettings(), owner: false }, (t) => {
  const operations = contractOperations();
  const unbuilt = new Set<string>(unbuiltOperations());
  const built = operations.filter((operation) => !unbuilt.has(operation.operationId));
  const kinds = new Set(built.flatMap((operation) => operation.idFields.map((field) => field.kind)));
  /** The kind of object an operation is tried with: its own kind of account where it needs one. */
  const kindFor = (operation: ContractOperation, kind: string) => (kind === 'acc' ? (ACCOUNT_KINDS[operation.operationId] ?? kind) : kind);
  let world: World;
  let places: Places;
  let counts: Record<string, number>;

  async function rowCounts(): Promise<Record<string, number>> {
    const db = t.app.services.db;
    const entries = await Promise.all(
      TABLES.map(async (table) => [table, Number((await db(table).count<{ count: string }[]>('* as count'))[0]!.count)]),
    );
    return Object.fromEntries(entries);
  }

  before(async function () {
    this.timeout(120_000);
    world = new World(t.app);
    const [mine, otherOwner] = await Promise.all([newOwner(t.app.api), newOwner(t.app.api)]);
    const second = await t.app.api.post('/profiles', { token: mine.session, body: { name: 'Second profile' } });
    const otherProfile = { ...mine, profileId: second.body.id as string };
    places = { mine, otherProfile, otherOwner, restricted: await restrictedKey(t.app.api, mine, [mine.profileId]) };
    const wanted = [...kinds, ...Object.values(ACCOUNT_KINDS)].filter((kind) => MAKERS[kind] !== null && kind in MAKERS);
    // The three places at once, each one object after the other: a few connections open on a busy machine, not fifty.
    await Promise.all(
      [mine, otherProfile, otherOwner].map(async (place) => {
        for (const kind of wanted) await world.object(kind, place);
      }),
    );
    counts = await rowCounts();
  });

  it('knows how to make every kind of id the built operations name', () => {
    expect(
      [...kinds].filter((kind) => !(kind in MAKERS)),
      'kinds of id with no maker in scope-objects.ts',
    ).to.deep.equal([]);
  });

  for (const operation of operations) {
    const fields = operation.idFields.filter((field) => MAKERS[field.kind] !== null);
    if (fields.length === 0) continue;
    const title = `${operation.operationId} — ${operation.method} ${operation.path}: ${fields.map((f) => `${f.in} ${f.name}`).join(', ')}`;
    if (unbuilt.has(operation.operationId)) {
      it.skip(`${title} (not built yet: 501)`);
      continue;
    }
    it(title, async () => {
      const ids = (place: TestOwner) => (kind: string) => world.object(kindFor(operation, kind), place);
      // Reached through a parent the request names too (a conversation through its account): not the parent's, so 404.
      const under = (field: IdField) => {
        const parents = MAKERS[field.kind]?.under ?? [];
        return operation.idFields.some((f) => f !== field && parents.includes(f.kind));
      };
      const isPublic = operation.requirement === 'public';
      const session = operation.requirement === 'session';
      const wrong: string[] = [];
      await Promise.all(
        fields.map(async (field) => {
          const kind = kindFor(operation, field.kind);
          const tries = [
            {
              what: 'another profile’s, with a key restricted to the first',
              token: places.restricted,
              id: await world.object(kind, places.otherProfile),
              // A public operation has no caller: the token in its URL is what is checked.
              ok: (status: number) => status === 403 || (status === 404 && (under(field) || isPublic)),
            },
            {
              what: 'another owner’s',
              token: session ? places.mine.session : places.mine.key,
              id: await world.object(kind, places.otherOwner),
              ok: (status: number, code: string, codes: string[]) =>
                status === 404 || (status === 422 && field.in === 'body' && [code, ...codes].some((c) => /not_found$|^unknown_/.test(c))),
            },
          ];
          for (const attempt of tries) {
            const request = await requestFor(operation, ids(places.mine), field, attempt.id);
            try {
              const answer = await t.app.api.request(request.method, request.path, { token: attempt.token, body: request.body });
              const codes = ((answer.body?.errors ?? []) as Array<{ code: string }>).map((error) => error.code);
              // A dry run (POST /posts/validate) answers what it would refuse with 200 and `valid: false`: its 422.
              const status = answer.status === 200 && answer.body?.valid === false ? 422 : answer.status;
              if (!attempt.ok(status, answer.body?.code ?? '', codes)) {
                wrong.push(`${field.in} ${field.name}, ${attempt.what}: ${answer.status} ${answer.text.slice(0, 300)}`);
              }
            } catch (error) {
              wrong.push(`${field.in} ${field.name}, ${attempt.what}: ${(error as Error).message.slice(0, 300)}`);
            }
          }
        }),
      );
      expect(wrong).to.deep.equal([]);
    });
  }

  it('wrote nothing for any of those requests', async () => {
    expect(await rowCounts()).to.deep.equal(counts);
  });
});
