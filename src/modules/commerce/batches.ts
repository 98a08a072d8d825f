import type { Knex } from 'knex';
import { type FieldError, NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { currencyExponent } from '../../lib/money.js';
import type { ProductFields, ProductIssue } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { findCatalog } from './access.js';
import { imported } from './import.js';
import { type CommerceProductBatch, presentBatch } from './present.js';
import type { BatchRow, CatalogRow, ItemRow, ProductRow } from './rows.js';

/** The worker's NOTIFY channel: a batch recorded wakes it at once. */
export const COMMERCE_CHANNEL = 'commerce_batches';

export interface BatchRequest {
  method: 'CREATE' | 'UPDATE' | 'DELETE';
  retailerId: string;
  data?: ProductFields;
}

const REQUIRED: Array<keyof ProductFields> = [
  'title',
  'description',
  'availability',
  'condition',
  'price',
  'currency',
  'link',
  'imageLink',
];
const LOOKUP_CHUNK = 1000;

/** 400 for what the contract's shape cannot say: a retailer id twice, `data` on a delete. */
function assertWellFormed(requests: BatchRequest[]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  requests.forEach((request, index) => {
    if (seen.has(request.retailerId))
      errors.push({
        path: `body/requests/${index}/retailerId`,
        code: 'duplicate',
        message: `retailerId ${request.retailerId} is in the batch twice.`,
      });
    seen.add(request.retailerId);
    if (request.method === 'DELETE' && request.data)
      errors.push({ path: `body/requests/${index}/data`, code: 'not_allowed', message: 'A DELETE takes no data.' });
  });
  if (errors.length > 0) throw new ValidationFailedError(errors);
}

async function liveProducts(db: Knex, catalogId: string, retailerIds: string[]): Promise<Map<string, ProductRow>> {
  const found = new Map<string, ProductRow>();
  for (let start = 0; start < retailerIds.length; start += LOOKUP_CHUNK) {
    const rows = (await db('commerceProducts')
      .where({ catalogId })
      .whereNull('deletedAt')
      .whereIn('retailerId', retailerIds.slice(start, start + LOOKUP_CHUNK))) as ProductRow[];
    for (const row of rows) found.set(row.retailerId, row);
  }
  return found;
}

const issue = (code: string, message: string, field: string | null = null): ProductIssue => ({ code, message, field });

/** Why the fields' currency cannot be priced in (one ISO 4217 does not list), or null. */
export function currencyIssue(fields: ProductFields): ProductIssue | null {
  if (fields.currency === undefined) return null;
  try {
    currencyExponent(fields.currency);
    return null;
  } catch {
    return issue('currency_unknown', `${fields.currency} is not an ISO 4217 currency.`, 'currency');
  }
}

/**
 * A change of a product as it is sent: a price goes with its currency (the product's own when the change does not
 * name one), and a new currency with the prices, which are in its minor units.
 */
export function pricedChange(change: ProductFields, current: ProductFields): ProductFields {
  if (change.price === undefined && change.salePrice === undefined && change.currency === undefined) return change;
  return {
    ...(change.currency !== undefined ? { price: current.price, salePrice: current.salePrice } : {}),
    ...change,
    currency: change.currency ?? current.currency,
  };
}

/** 400 for a currency ISO 4217 does not list, in a request's body. */
export function assertKnownCurrency(fields: ProductFields): void {
  const badCurrency = currencyIssue(fields);
  if (badCurrency) throw new ValidationFailedError([{ path: 'body/currency', code: badCurrency.code, message: badCurrency.message }]);
}

/** What an item is, judged against our records: failed at once, or a change of a product to send. */
interface Planned {
  item: Omit<ItemRow, 'part'>;
  /** The product as it will be once the platform has the change (absent for an item failed at once). */
  product?: { row: ProductRow | null; id: string; fields: ProductFields; operation: 'create' | 'update' | 'delete' };
}

function plan(batchId: string, index: number, asked: BatchRequest, existing: ProductRow | undefined, upsert: boolean): Planned {
  const request: BatchRequest = upsert && existing && asked.method === 'CREATE' ? { ...asked, method: 'UPDATE' } : asked;
  const item = {
    batchId,
    index,
    method: request.method,
    retailerId: request.retailerId,
    productId: null,
    data: null,
    status: 'pending' as const,
    errors: [],
  };
  const fail = (...errors: ProductIssue[]): Planned => ({ item: { ...item, productId: existing?.id ?? null, status: 'failed', errors } });
  if (request.method === 'CREATE') {
    if (existing)
      return fail(issue('retailer_id_taken', `The catalog has a product with retailerId ${request.retailerId} already.`, 'retailerId'));
    const missing = REQUIRED.filter((member) => request.data?.[member] === undefined);
    if (missing.length > 0) return fail(...missing.map((member) => issue('required', `A CREATE needs ${member}.`, member)));
    const badCurrency = currencyIssue(request.data!);
    if (badCurrency) return fail(badCurrency);
    const id = newId('prod');
    return {
      item: { ...item, productId: id, data: request.data! },
      product: { row: null, id, fields: request.data!, operation: 'create' },
    };
  }
  if (!existing) return fail(issue('not_found', 'The catalog has no product with this retailerId.', 'retailerId'));
  if (request.method === 'DELETE')
    return {
      item: { ...item, productId: existing.id },
      product: { row: existing, id: existing.id, fields: existing.fields, operation: 'delete' },
    };
  if (!request.data) return fail(issue('required', 'An UPDATE needs data: the members to change.', 'data'));
  const badCurrency = currencyIssue(request.data);
  if (badCurrency) return fail(badCurrency);
  const current = { ...existing.fields, availability: existing.availability } as ProductFields;
  const sent = pricedChange(request.data, current);
  return {
    item: { ...item, productId: existing.id, data: sent },
    product: { row: existing, id: existing.id, fields: { ...current, ...request.data }, operation: 'update' },
  };
}

/** Records the batch, its platform parts, its items and the products as they will be, in one transaction. */
async function record(services: Services, catalog: CatalogRow, batchId: string, planned: Planned[], partSize: number): Promise<void> {
  const { db, config } = services;
  const sending = planned.filter((p) => p.product);
  const parts = Math.ceil(sending.length / partSize);
  sending.forEach((p, position) => ((p.item as ItemRow).part = Math.floor(position / partSize)));
  const failed = planned.length - sending.length;
  await db.transaction(async (trx) => {
    await trx('commerceBatches').insert({
      id: batchId,
      ownerId: catalog.ownerId,
      catalogId: catalog.id,
      status: parts === 0 ? 'finished' : 'processing',
      itemCount: planned.length,
      failedCount: failed,
      finishedAt: parts === 0 ? trx.fn.now() : null,
    });
    const fresh = sending.filter((p) => p.product!.row === null);
    const changed = sending.filter((p) => p.product!.row !== null);
    const productColumns = (p: Planned) => {
      const { availability, ...fields } = p.product!.fields;
      return { id: p.product!.id, fields, availability: availability ?? 'in stock', operation: p.product!.operation };
    };
    for (let start = 0; start < fresh.length; start += LOOKUP_CHUNK)
      await trx('commerceProducts').insert(
        fresh.slice(start, start + LOOKUP_CHUNK).map((p) => {
          const { id, fields, availability } = productColumns(p);
          return {
            id,
            catalogId: catalog.id,
            retailerId: p.item.retailerId,
            fields: JSON.stringify(fields),
            availability,
            syncStatus: 'pending',
            syncOperation: 'create',
            syncBatchId: batchId,
          };
        }),
      );
    if (changed.length > 0)
      await trx.raw(
        `UPDATE commerce_products p SET fields = v.fields, availability = v.availability, sync_status = 'pending', sync_operation = v.operation,
           sync_batch_id = ?, sync_errors = '[]', review_status = CASE WHEN v.operation = 'update' THEN 'outdated' ELSE p.review_status END,
           updated_at = now()
         FROM jsonb_to_recordset(?::jsonb) AS v(id text, fields jsonb, availability text, operation text) WHERE p.id = v.id`,
        [batchId, JSON.stringify(changed.map(productColumns))],
      );
    for (let start = 0; start < planned.length; start += LOOKUP_CHUNK)
      await trx('commerceBatchItems').insert(
        planned.slice(start, start + LOOKUP_CHUNK).map(({ item }) => ({
          ...item,
          part: (item as ItemRow).part ?? null,
          data: item.data === null ? null : JSON.stringify(item.data),
          errors: JSON.stringify(item.errors),
        })),
      );
    if (parts > 0) {
      await trx('commerceBatchParts').insert(
        Array.from({ length: parts }, (_, part) => ({
          batchId,
          part,
          accountId: catalog.accountId,
          status: 'unsent',
          giveUpAt: trx.raw('now() + make_interval(secs => ?)', [config.commerce.giveUpSeconds]),
        })),
      );
      await trx.raw(`NOTIFY ${COMMERCE_CHANNEL}`);
    }
  });
}

/**
 * Takes a batch of product changes: items our records can judge fail at once (a CREATE of a retailer id the
 * catalog has, or missing a required member; an UPDATE or DELETE of an unknown one); the others are recorded
 * pending, in platform batches of the platform's size, which the worker sends and follows. Answers after the
 * platform has finished, or after `answerWaitMs`, with what is pending then.
 */
export async function createBatch(
  services: Services,
  principal: Principal,
  input: { catalogId: string; requests: BatchRequest[] },
  /** A CREATE of a retailer id the catalog has is an UPDATE of the members it gives (a feed's rows). */
  upsert = false,
): Promise<CommerceProductBatch> {
  assertWellFormed(input.requests);
  const catalog = await imported(services, principal, await findCatalog(services, principal, input.catalogId));
  const existing = await liveProducts(
    services.db,
    catalog.id,
    input.requests.map((r) => r.retailerId),
  );
  const batchId = newId('pbat');
  const planned = input.requests.map((request, index) => plan(batchId, index, request, existing.get(request.retailerId), upsert));
  const maxSize = services.platforms.capability(catalog.platform, 'commerce')?.maxBatchSize ?? Infinity;
  await record(services, catalog, batchId, planned, Math.min(services.config.commerce.platformBatchSize, maxSize));
  return waitForBatch(services.db, batchId, services.config.commerce.answerWaitMs);
}

/** The batch as it stands, with its items. */
export async function readBatch(db: Knex, id: string): Promise<CommerceProductBatch> {
  const batch = (await db('commerceBatches').where({ id }).first()) as BatchRow;
  const items = (await db('commerceBatchItems').where({ batchId: id }).orderBy('index')) as ItemRow[];
  return presentBatch(batch, items);
}

/** The batch once it has finished, or as it stands after `ms`. */
export async function waitForBatch(db: Knex, id: string, ms: number): Promise<CommerceProductBatch> {
  const until = Date.now() + ms;
  for (;;) {
    const row = (await db('commerceBatches').where({ id }).first('status')) as Pick<BatchRow, 'status'>;
    if (row.status === 'finished' || Date.now() >= until) return readBatch(db, id);
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, until - Date.now())));
  }
}

/** The owner's batch (through its catalog's profile). */
export async function findBatch(services: Services, principal: Principal, id: string): Promise<CommerceProductBatch> {
  const row = (await services.db('commerceBatches').where({ id, ownerId: principal.ownerId }).first()) as BatchRow | undefined;
  if (!row) throw new NotFoundError('batch');
  await findCatalog(services, principal, row.catalogId);
  return readBatch(services.db, id);
}
