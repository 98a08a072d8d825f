import type { AdAudiences, AudienceUpload, BatchReceipt, HashedRow } from '../../../platforms/capabilities/ad-audiences.js';
import { PlatformError } from '../../../platforms/errors.js';
import type { AdapterAccount } from '../../../platforms/types.js';
import type { Services } from '../../../services.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';
import { type HashingPlatform, type PersonField, preparePersonField } from '../people/hashing.js';
import { AdPlatformRejectedError, AudienceNotFoundError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { audienceRefusals } from './access.js';
import type { Line } from './lines.js';
import { type AdAudienceUpload, noteProgress, type Progress, readReceipt, SAMPLES, startReceipt } from './receipts.js';

/**
 * What an upload has read so far: each line taken becomes the row the platform receives (each field it takes,
 * normalised and hashed as its rules say — the phone read with the person's country — under its key) or is
 * counted refused, the first refusals named by line; fields the platform takes none of are named as unused.
 */
export class Tally {
  readonly fields = new Set<string>();
  private readonly unused = new Set<string>();
  private readonly progress: Progress = { read: 0, received: 0, invalid: 0, batches: 0, fields: [], unusedFields: [], samples: [] };

  constructor(
    private readonly platform: HashingPlatform,
    readonly keys: AdAudiences['personKeys'],
  ) {}

  /** The line's row, or null when it is refused (counted). */
  take(line: Line): HashedRow | null {
    this.progress.read += 1;
    if ('refused' in line) return this.refuse(line.line, line.refused);
    const row: HashedRow = {};
    for (const [field, value] of Object.entries(line.person) as Array<[PersonField, string]>) {
      const key = this.keys[field];
      if (!key) this.unused.add(field);
      else {
        const prepared = preparePersonField(this.platform, field, value, { country: line.person.country });
        if (prepared !== undefined) row[key] = prepared;
      }
    }
    return Object.keys(row).length > 0 ? row : this.refuse(line.line, 'no field the platform takes is usable once normalised');
  }

  /** The keys a batch's rows carry, in the platform's order: its schema for the call. */
  keysOf(rows: HashedRow[]): string[] {
    return Object.values(this.keys).filter((key) => rows.some((row) => row[key] !== undefined));
  }

  /** A batch the platform took: what it counted. */
  sent(keys: string[], receipt: BatchReceipt): void {
    for (const key of keys) this.fields.add(key);
    this.progress.received += receipt.received;
    this.progress.invalid += receipt.invalid;
    this.progress.batches += 1;
  }

  snapshot(): Progress {
    return { ...this.progress, fields: [...this.fields], unusedFields: [...this.unused] };
  }

  private refuse(line: number, message: string): null {
    this.progress.invalid += 1;
    if (this.progress.samples.length < SAMPLES) this.progress.samples.push({ line, message });
    return null;
  }
}

/**
 * Sends people to the platform batch by batch as they are read, in one upload session, keeping the receipt up to
 * date after each batch: at most two batches are in memory (the one sent and the one filling, which must be known
 * not to be the last before the first is sent). The platform's failure ends the receipt `failed` and is thrown.
 */
export async function sendPeople(
  services: Services,
  audiences: AdAudiences,
  account: AdapterAccount,
  row: AdAccountRow,
  target: { audienceId: string; action: 'add' | 'remove' },
  lines: AsyncIterable<Line>,
): Promise<AdAudienceUpload> {
  const tally = new Tally(row.platform as HashingPlatform, audiences.personKeys);
  let session: AudienceUpload | null = null;
  let receiptId: string | null = null;
  const flush = async (rows: HashedRow[], last: boolean) => {
    const keys = tally.keysOf(rows);
    session ??= await audiences.upload(account, target.audienceId, target.action, keys);
    receiptId ??= await startReceipt(services.db, row, target.audienceId, target.action, session.sessionId);
    tally.sent(keys, await session.send(rows, last));
    await noteProgress(services.db, receiptId, tally.snapshot());
  };

  let pending: HashedRow[] | null = null;
  let filling: HashedRow[] = [];
  try {
    for await (const line of lines) {
      const hashed = tally.take(line);
      if (!hashed) continue;
      filling.push(hashed);
      if (filling.length < audiences.batchSize) continue;
      if (pending) await flush(pending, false);
      pending = filling;
      filling = [];
    }
    if (filling.length > 0) {
      if (pending) await flush(pending, false);
      pending = filling;
    }
    if (pending) await flush(pending, true);
  } catch (error) {
    if (receiptId !== null && error instanceof PlatformError)
      await noteProgress(services.db, receiptId, tally.snapshot(), { status: 'failed', error: error.message });
    throw error;
  }
  // Nothing usable reached the platform: the receipt is ours alone (no session was opened).
  receiptId ??= await startReceipt(services.db, row, target.audienceId, target.action, null);
  await noteProgress(services.db, receiptId, tally.snapshot(), { status: 'complete' });
  return readReceipt(services.db, receiptId, row);
}

/**
 * `POST /ads/audiences/{audienceId}/people` and `…/people/removals`: the people of the body added to (removed
 * from) a customer list of the caller's ad account, streamed to the platform; the answer is the upload's receipt.
 */
export async function uploadPeople(
  services: Services,
  principal: Principal,
  target: { adAccountId: string; audienceId: string; action: 'add' | 'remove' },
  lines: AsyncIterable<Line>,
): Promise<AdAudienceUpload> {
  return withAdAccount(
    'adAudiences',
    services,
    principal,
    target.adAccountId,
    { handle: audienceRefusals('query') },
    async (audiences, account, row) => {
      const audience = await audiences.get(account, target.audienceId);
      if (!audience) throw new AudienceNotFoundError();
      if (audience.subtype !== 'CUSTOM')
        throw new AdPlatformRejectedError(
          `The audience is a ${audience.subtype.toLowerCase()} audience: only customer lists (CUSTOM) take people.`,
          null,
          { code: null, subcode: null },
        );
      return sendPeople(services, audiences, account, row, target, lines);
    },
  );
}
