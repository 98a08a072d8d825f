import type { components } from '../../../../generated/api.js';
import { sha256Hex } from '../../../lib/crypto.js';
import { ValidationFailedError } from '../../../lib/errors.js';
import { cursorForm } from '../../../lib/pagination.js';
import type { AudienceInput, PlatformAudience } from '../../../platforms/capabilities/ad-audiences.js';
import type { Services } from '../../../services.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';
import { writeOnce } from '../../platform-writes/ledger.js';
import { type HashingPlatform, isSha256Hex } from '../people/hashing.js';
import { AudienceNotFoundError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { audienceRefusals } from './access.js';
import type { Line } from './lines.js';
import { sendPeople, Tally } from './people.js';
import { noteProgress, startReceipt } from './receipts.js';

type Schemas = components['schemas'];
export type AdAudience = Schemas['AdAudience'];
type AudienceCreate = Schemas['AdAudienceCreate'];

const DEFAULT_LIMIT = 25;
/** Where a list goes on: the platform's page token, with the ad account and subtype it belongs to. */
const PAGE = cursorForm('adaud1', { adAccountId: 'text', subtype: 'text', after: 'platformCursor' });

/** Which members each subtype takes (the others are refused: 400). */
const MEMBERS: Record<AudienceCreate['subtype'], { needs: Array<keyof AudienceCreate>; refuses: Array<keyof AudienceCreate> }> = {
  CUSTOM: { needs: [], refuses: ['lookalikeSpec', 'pixelId', 'rule', 'retentionDays'] },
  LOOKALIKE: { needs: ['lookalikeSpec'], refuses: ['customerFileSource', 'users', 'pixelId', 'rule', 'retentionDays'] },
  WEBSITE: { needs: ['pixelId', 'rule', 'retentionDays'], refuses: ['customerFileSource', 'users', 'lookalikeSpec'] },
};

export function presentAudience(audience: PlatformAudience, row: AdAccountRow): AdAudience {
  return {
    ...audience,
    adAccountId: row.id,
    platform: row.platform as AdAudience['platform'],
    approximateCount: audience.sizeRange?.lower ?? null,
  };
}

/** The audience as the platform is asked for it, once the body's members fit its subtype. */
function audienceInput(body: AudienceCreate): AudienceInput {
  const { needs, refuses } = MEMBERS[body.subtype];
  const errors = [
    ...needs.filter((name) => body[name] === undefined).map((name) => ({ name, message: `is required for a ${body.subtype} audience` })),
    ...refuses.filter((name) => body[name] !== undefined).map((name) => ({ name, message: `is not taken by a ${body.subtype} audience` })),
  ];
  if (errors.length > 0)
    throw new ValidationFailedError(errors.map(({ name, message }) => ({ path: `body/${name}`, message, code: 'subtype_member' })));
  const common = { name: body.name, ...(body.description === undefined ? {} : { description: body.description }) };
  if (body.subtype === 'LOOKALIKE') return { ...common, subtype: 'LOOKALIKE', lookalikeSpec: body.lookalikeSpec! };
  if (body.subtype === 'WEBSITE')
    return { ...common, subtype: 'WEBSITE', pixelId: body.pixelId!, rule: body.rule!, retentionDays: body.retentionDays! };
  return { ...common, subtype: 'CUSTOM', customerFileSource: body.customerFileSource ?? 'USER_PROVIDED_ONLY' };
}

/** `users` of a create as the lines of an upload: hashes that are not one are refused, like unreadable lines. */
function* usersLines(users: NonNullable<AudienceCreate['users']>): Generator<Line> {
  const field = users.schema === 'EMAIL_SHA256' ? 'email' : 'phone';
  for (const [index, value] of users.data.entries()) {
    if (users.hashed !== false && !isSha256Hex(value)) yield { line: index + 1, refused: 'not a SHA-256 hex digest (hashed is true)' };
    else yield { line: index + 1, person: { [field]: value } };
  }
}

async function* asAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

export async function listAudiences(
  services: Services,
  principal: Principal,
  query: { adAccountId: string; subtype?: AudienceCreate['subtype']; limit?: number; cursor?: string },
): Promise<Schemas['AdAudienceList']> {
  const { adAccountId, subtype } = query;
  const form = { adAccountId, subtype: subtype ?? '' };
  const after = query.cursor ? PAGE.decode(query.cursor, form).after : undefined;
  return withAdAccount(
    'adAudiences',
    services,
    principal,
    adAccountId,
    { handle: audienceRefusals('query') },
    async (audiences, account, row) => {
      const page = await audiences.list(account, subtype, query.limit ?? DEFAULT_LIMIT, after);
      return {
        data: page.items.map((one) => presentAudience(one, row)),
        nextCursor: page.nextCursor ? PAGE.encode({ ...form, after: page.nextCursor }) : null,
      };
    },
  );
}

export async function getAudience(services: Services, principal: Principal, audienceId: string, adAccountId: string): Promise<AdAudience> {
  return withAdAccount(
    'adAudiences',
    services,
    principal,
    adAccountId,
    { handle: audienceRefusals('query') },
    async (audiences, account, row) => {
      const audience = await audiences.get(account, audienceId);
      if (!audience) throw new AudienceNotFoundError();
      return presentAudience(audience, row);
    },
  );
}

export async function updateAudience(
  services: Services,
  principal: Principal,
  audienceId: string,
  body: Schemas['AdAudienceUpdate'],
): Promise<AdAudience> {
  const { adAccountId, ...change } = body;
  return withAdAccount('adAudiences', services, principal, adAccountId, { handle: audienceRefusals() }, async (audiences, account, row) => {
    const current = await audiences.get(account, audienceId);
    if (!current) throw new AudienceNotFoundError();
    if (change.retentionDays !== undefined && current.subtype !== 'WEBSITE')
      throw new ValidationFailedError([
        { path: 'body/retentionDays', message: `is not taken by a ${current.subtype} audience`, code: 'subtype_member' },
      ]);
    const updated = await audiences.update(account, audienceId, change);
    if (!updated) throw new AudienceNotFoundError();
    return presentAudience(updated, row);
  });
}

/** Deletes the audience on the platform; one gone already is deleted still (204 again). */
export async function deleteAudience(services: Services, principal: Principal, audienceId: string, adAccountId: string): Promise<void> {
  await withAdAccount('adAudiences', services, principal, adAccountId, { handle: audienceRefusals('query') }, (audiences, account) =>
    audiences.delete(account, audienceId),
  );
}

/**
 * `POST /ads/audiences`: the audience created once per write key (the ledger records the attempt first; a lost
 * answer is looked for by name and subtype since the attempt, never created again), its first `users` uploaded as
 * its first receipt (on a platform that makes customer lists from a first file, with the create itself). The users
 * never reach the ledger: only a digest of them tells one request from another under the same key.
 */
export async function createAudience(
  services: Services,
  principal: Principal,
  body: AudienceCreate,
  ledgerKey: string,
): Promise<AdAudience> {
  const input = audienceInput(body);
  return withAdAccount(
    'adAudiences',
    services,
    principal,
    body.adAccountId,
    { handle: audienceRefusals() },
    async (audiences, account, row) => {
      const users = body.users;
      const tally = new Tally(row.platform as HashingPlatform, audiences.personKeys);
      // A platform that makes a customer list from its first people takes them with the create (at most one batch).
      const firstRows =
        users && audiences.createsWithPeople
          ? [...usersLines(users)].map((line) => tally.take(line)).filter((one) => one !== null)
          : undefined;
      const written = await writeOnce(services.db, {
        ownerId: row.ownerId,
        accountId: row.id,
        key: ledgerKey,
        kind: 'ad.audience.create',
        request: { input, users: users ? sha256Hex(JSON.stringify(users)) : null },
        send: () => audiences.create(account, input, firstRows),
        reconcile: async (since) => {
          const id = await audiences.findCreated(account, input, since);
          return id ? { id, first: null } : null;
        },
        store: async () => {},
      });
      const { id, first } = written.result;
      let upload: { received: number; invalid: number } | null = null;
      if (users && written.how !== 'replayed') {
        if (firstRows) {
          tally.sent(tally.keysOf(firstRows), first ?? { received: firstRows.length, invalid: 0 });
          const receiptId = await startReceipt(services.db, row, id, 'add', null);
          await noteProgress(services.db, receiptId, tally.snapshot(), { status: 'complete' });
          upload = tally.snapshot();
        } else upload = await sendPeople(services, audiences, account, row, { audienceId: id, action: 'add' }, asAsync(usersLines(users)));
      }
      const audience = await audiences.get(account, id);
      if (!audience) throw new Error(`the audience ${id} created on the platform is gone`);
      return {
        ...presentAudience(audience, row),
        ...(upload ? { userUpload: { received: upload.received, invalid: upload.invalid } } : {}),
      };
    },
  );
}
