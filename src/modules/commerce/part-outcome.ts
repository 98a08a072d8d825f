import type { Knex } from 'knex';
import type { BatchProgress, PlatformProduct, ProductIssue } from '../../platforms/capabilities/commerce.js';
import type { ItemRow, PartRow } from './rows.js';

type Lines = Extract<BatchProgress, { finished: true }>['errors'];

/** What became of a turn on a platform batch. */
export type PartOutcome =
  | { kind: 'sent'; handle: string; at: Date }
  | { kind: 'retry'; at: Date }
  | { kind: 'resend' }
  | { kind: 'finished'; errors: Lines; warnings: Lines; products: PlatformProduct[] }
  | { kind: 'gave_up'; seconds: number }
  | { kind: 'failed'; message: string };

/** Each item's final state, by its position among the part's items (its line in the platform batch). */
interface Settled {
  item: ItemRow;
  ok: boolean;
  issues: ProductIssue[];
  product?: PlatformProduct;
}

function settledItems(items: ItemRow[], outcome: PartOutcome): Settled[] {
  if (outcome.kind === 'gave_up') {
    const issue = { code: 'platform_timeout', message: `The platform did not finish the batch within ${outcome.seconds} s.`, field: null };
    return items.map((item) => ({ item, ok: false, issues: [issue] }));
  }
  if (outcome.kind === 'failed')
    return items.map((item) => ({ item, ok: false, issues: [{ code: 'platform_error', message: outcome.message, field: null }] }));
  if (outcome.kind !== 'finished') return [];
  const byLine = (lines: Lines) => {
    const map = new Map<number, ProductIssue[]>();
    for (const { line, issue } of lines) map.set(line, [...(map.get(line) ?? []), issue]);
    return map;
  };
  const errors = byLine(outcome.errors);
  const warnings = byLine(outcome.warnings);
  const products = new Map(outcome.products.map((product) => [product.retailerId, product]));
  return items.map((item, line) => {
    const failed = errors.get(line);
    if (failed) return { item, ok: false, issues: failed };
    const product = products.get(item.retailerId);
    return { item, ok: true, issues: [...(warnings.get(line) ?? []), ...(product?.issues ?? [])], ...(product ? { product } : {}) };
  });
}

/**
 * Settles the part's items, their products and the batch's counts in one transaction: a line the platform
 * refused fails its item (its product `failed`, with the reasons); the others succeed (a product `synced`, with
 * the platform's id, review and warnings; a delete's product deleted). The batch finishes with its last part.
 */
async function settle(trx: Knex.Transaction, part: PartRow, outcome: PartOutcome): Promise<void> {
  // Parts of one batch settle one at a time: the last one's count then sees the others' items final.
  await trx('commerceBatches').where({ id: part.batchId }).forUpdate().first('id');
  const items = (await trx('commerceBatchItems')
    .where({ batchId: part.batchId, part: part.part, status: 'pending' })
    .orderBy('index')) as ItemRow[];
  const settled = settledItems(items, outcome);
  await trx.raw(
    `UPDATE commerce_batch_items i SET status = v.status, errors = CASE WHEN v.status = 'failed' THEN v.issues ELSE '[]' END
     FROM jsonb_to_recordset(?::jsonb) AS v("index" int, status text, issues jsonb) WHERE i.batch_id = ? AND i.index = v.index`,
    [JSON.stringify(settled.map((s) => ({ index: s.item.index, status: s.ok ? 'succeeded' : 'failed', issues: s.issues }))), part.batchId],
  );
  await trx.raw(
    `UPDATE commerce_products p SET
       sync_status = CASE WHEN v.ok THEN 'synced' ELSE 'failed' END,
       sync_errors = v.issues,
       synced_at = CASE WHEN v.ok THEN now() ELSE p.synced_at END,
       deleted_at = CASE WHEN v.ok AND v.method = 'DELETE' THEN now() ELSE p.deleted_at END,
       platform_product_id = COALESCE(v.platform_id, p.platform_product_id),
       review_status = COALESCE(v.review, p.review_status),
       updated_at = now()
     FROM jsonb_to_recordset(?::jsonb) AS v(id text, ok boolean, method text, issues jsonb, platform_id text, review text)
     WHERE p.id = v.id AND p.sync_batch_id = ?`,
    [
      JSON.stringify(
        settled.map((s) => ({
          id: s.item.productId,
          ok: s.ok,
          method: s.item.method,
          issues: s.issues,
          platform_id: s.product?.id ?? null,
          review: s.product?.reviewStatus ?? null,
        })),
      ),
      part.batchId,
    ],
  );
  await trx('commerceBatchParts').where({ batchId: part.batchId, part: part.part }).update({ status: 'done', lockedUntil: null });
  await trx.raw(
    `UPDATE commerce_batches b SET succeeded_count = c.succeeded, failed_count = c.failed,
       status = CASE WHEN c.pending = 0 THEN 'finished' ELSE 'processing' END,
       finished_at = CASE WHEN c.pending = 0 THEN now() ELSE NULL END
     FROM (SELECT count(*) FILTER (WHERE status = 'succeeded') AS succeeded, count(*) FILTER (WHERE status = 'failed') AS failed,
             count(*) FILTER (WHERE status = 'pending') AS pending
           FROM commerce_batch_items WHERE batch_id = ?) c
     WHERE b.id = ?`,
    [part.batchId, part.batchId],
  );
}

/** Commits a turn's outcome on a part (and gives up its lease). */
export async function recordPart(db: Knex, part: PartRow, outcome: PartOutcome): Promise<void> {
  const here = db('commerceBatchParts').where({ batchId: part.batchId, part: part.part }).whereNot({ status: 'done' });
  switch (outcome.kind) {
    case 'sent':
      await here.update({ status: 'sent', handle: outcome.handle, attempts: 0, nextAttemptAt: outcome.at, lockedUntil: null });
      return;
    case 'retry':
      await here.update({ attempts: part.attempts + 1, nextAttemptAt: outcome.at, lockedUntil: null });
      return;
    case 'resend':
      await here.update({
        status: 'unsent',
        handle: null,
        generation: part.generation + 1,
        attempts: 0,
        nextAttemptAt: db.fn.now(),
        lockedUntil: null,
      });
      return;
    default:
      await db.transaction((trx) => settle(trx, part, outcome));
  }
}
