import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import { type AdAccountId, newId } from '../../../lib/ids.js';
import { keysetPage, decodeKeyset } from '../../../lib/pagination.js';
import type { Services } from '../../../services.js';
import { findAdAccount } from '../../accounts/read.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';

export type AdAudienceUpload = components['schemas']['AdAudienceUpload'];

/** The most refused lines a receipt names. */
export const SAMPLES = 20;
const DEFAULT_LIMIT = 20;

interface ReceiptRow {
  id: string;
  ownerId: string;
  adAccountId: AdAccountId;
  audienceId: string;
  action: AdAudienceUpload['action'];
  status: AdAudienceUpload['status'];
  read: number;
  received: number;
  invalid: number;
  matched: number | null;
  batches: number;
  fields: string[];
  unusedFields: string[];
  sessionId: string | null;
  samples: AdAudienceUpload['samples'];
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** What an upload has done so far: the counts, the fields, the refused lines sampled. */
export type Progress = Pick<ReceiptRow, 'read' | 'received' | 'invalid' | 'batches' | 'fields' | 'unusedFields' | 'samples'>;

function present(row: ReceiptRow, platform: AdAccountRow['platform']): AdAudienceUpload {
  return {
    id: row.id,
    adAccountId: row.adAccountId,
    audienceId: row.audienceId,
    platform: platform as AdAudienceUpload['platform'],
    action: row.action,
    status: row.status,
    read: row.read,
    received: row.received,
    invalid: row.invalid,
    matched: row.matched,
    batches: row.batches,
    fields: row.fields,
    unusedFields: row.unusedFields,
    sessionId: row.sessionId,
    samples: row.samples,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** A receipt kept from the start of an upload, so that one cut short still tells how far it went. */
export async function startReceipt(
  db: Knex,
  row: AdAccountRow,
  audienceId: string,
  action: AdAudienceUpload['action'],
  sessionId: string | null,
): Promise<string> {
  const id = newId('aupl');
  await db('adAudienceUploads').insert({
    id,
    ownerId: row.ownerId,
    adAccountId: row.id,
    audienceId,
    action,
    status: 'uploading',
    sessionId,
  });
  return id;
}

const asJson = (progress: Progress) => ({
  ...progress,
  fields: JSON.stringify(progress.fields),
  unusedFields: JSON.stringify(progress.unusedFields),
  samples: JSON.stringify(progress.samples),
});

/** The receipt after another batch (still uploading), or at its end: `complete`, or `failed` with why. */
export async function noteProgress(
  db: Knex,
  id: string,
  progress: Progress,
  end?: { status: 'complete' } | { status: 'failed'; error: string },
): Promise<void> {
  await db('adAudienceUploads')
    .where({ id })
    .update({ ...asJson(progress), ...(end ? { ...end, finishedAt: db.fn.now() } : {}) });
}

export async function readReceipt(db: Knex, id: string, row: AdAccountRow): Promise<AdAudienceUpload> {
  return present((await db('adAudienceUploads').where({ id }).first()) as ReceiptRow, row.platform);
}

/** `GET /ads/audiences/{audienceId}/uploads`: the caller's receipts of one audience of an ad account, newest first. */
export async function listReceipts(
  services: Services,
  principal: Principal,
  audienceId: string,
  query: { adAccountId: string; limit?: number; cursor?: string },
): Promise<{ data: AdAudienceUpload[]; nextCursor: string | null }> {
  const row = await findAdAccount(services.db, principal, query.adAccountId as AdAccountId);
  const after = decodeKeyset(query.cursor, ['id'])?.[0] as string | undefined;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const rows = (await services
    .db('adAudienceUploads')
    .where({ adAccountId: row.id, audienceId })
    .modify((q) => (after ? q.where('id', '<', after) : q))
    .orderBy('id', 'desc')
    .limit(limit + 1)) as ReceiptRow[];
  const page = keysetPage(rows, limit, (one) => [one.id]);
  return { data: page.rows.map((one) => present(one, row.platform)), nextCursor: page.nextCursor };
}
