import type { FieldError } from '../../lib/errors.js';
import { toMinorUnits } from '../../lib/money.js';
import type { ProductAvailability, ProductFields } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { findCatalog } from './access.js';
import { type BatchRequest, createBatch, currencyIssue } from './batches.js';
import { ProductFeedInvalidError } from './errors.js';
import { type FeedFormat, type FeedRow, readFeed } from './feed-read.js';
import type { CommerceProductBatch } from './present.js';

const AVAILABILITY: ProductAvailability[] = ['in stock', 'out of stock', 'preorder', 'available for order', 'discontinued'];
const CONDITION = ['new', 'refurbished', 'used'] as const;
const STATUS = ['active', 'archived'] as const;
/** The platform's feed price: a major-unit decimal and an ISO 4217 code, "12.90 EUR". */
const PRICE = /^(\d+(?:\.\d+)?)\s+([A-Za-z]{3})$/;
const GTIN = /^[0-9]{8,14}$/;
/** The text columns and their longest value, as the contract's CommerceProductFields has them. */
const TEXT: Array<[column: string, member: keyof ProductFields, maxLength: number, required: boolean]> = [
  ['title', 'title', 200, true],
  ['description', 'description', 9999, true],
  ['brand', 'brand', 100, false],
  ['mpn', 'mpn', 100, false],
  ['item_group_id', 'itemGroupId', 100, false],
  ['product_type', 'productType', 750, false],
  ['color', 'color', 200, false],
  ['size', 'size', 200, false],
];

/** One row's product change, or what is wrong with it (by column). */
function rowRequest(row: FeedRow): { request?: BatchRequest; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fault = (column: string, code: string, why: string) =>
    errors.push({ path: `feed/line/${row.line}/${column}`, code, message: `Line ${row.line}, ${column}: ${why}` });
  const given = (column: string): string | undefined => row.columns[column] || undefined;
  const data: ProductFields = {};
  const retailerId = given('id');
  if (!retailerId) fault('id', 'required', 'the product needs an id (its retailer id).');
  else if (retailerId.length > 100) fault('id', 'maxLength', 'an id has at most 100 characters.');
  for (const [column, member, maxLength, required] of TEXT) {
    const value = given(column);
    if (value === undefined) {
      if (required) fault(column, 'required', 'the product needs one.');
    } else if (value.length > maxLength) fault(column, 'maxLength', `at most ${maxLength} characters.`);
    else (data as Record<string, string>)[member] = value;
  }
  const oneOf = <T extends string>(column: string, allowed: readonly T[], required: boolean): T | undefined => {
    const value = given(column)?.toLowerCase();
    if (value === undefined) {
      if (required) fault(column, 'required', `the product needs one of ${allowed.join(', ')}.`);
      return undefined;
    }
    if ((allowed as readonly string[]).includes(value)) return value as T;
    fault(column, 'enum', `"${value}" is none of ${allowed.join(', ')}.`);
    return undefined;
  };
  data.availability = oneOf('availability', AVAILABILITY, true);
  data.condition = oneOf('condition', CONDITION, true);
  data.status = oneOf('status', STATUS, false);
  const url = (column: string, value: string): string | undefined => {
    if (/^https?:\/\/[^\s]+$/.test(value) && value.length <= 2048) return value;
    fault(column, 'url', `"${value}" is not an http(s) URL of at most 2048 characters.`);
    return undefined;
  };
  for (const [column, member] of [
    ['link', 'link'],
    ['image_link', 'imageLink'],
  ] as const) {
    const value = given(column);
    if (value === undefined) fault(column, 'required', 'the product needs one.');
    else data[member] = url(column, value);
  }
  const extraImages = given('additional_image_link');
  if (extraImages) data.additionalImageLinks = extraImages.split(',').map((link) => url('additional_image_link', link.trim()) ?? '');
  const money = (column: string): { minor: number; currency: string } | undefined => {
    const value = given(column);
    const match = value === undefined ? null : PRICE.exec(value);
    if (!match) {
      if (value !== undefined || column === 'price')
        fault(
          column,
          value === undefined ? 'required' : 'price',
          `${value === undefined ? 'the product needs one' : `"${value}" is not`} an amount and a currency like "12.90 EUR".`,
        );
      return undefined;
    }
    const currency = match[2]!.toUpperCase();
    const unknown = currencyIssue({ currency });
    if (unknown) {
      fault(column, unknown.code, unknown.message);
      return undefined;
    }
    return { minor: toMinorUnits(match[1]!, currency), currency };
  };
  const price = money('price');
  const sale = money('sale_price');
  if (price) Object.assign(data, { price: price.minor, currency: price.currency });
  if (sale && price && sale.currency !== price.currency)
    fault('sale_price', 'currency', `the sale price is in ${sale.currency}, the price in ${price.currency}.`);
  else if (sale) data.salePrice = sale.minor;
  const gtin = given('gtin');
  if (gtin !== undefined && !GTIN.test(gtin)) fault('gtin', 'pattern', `"${gtin}" is not 8 to 14 digits.`);
  else if (gtin !== undefined) data.gtin = gtin;
  const inventory = given('inventory') ?? given('quantity_to_sell_on_facebook');
  if (inventory !== undefined && !/^\d{1,9}$/.test(inventory))
    fault('inventory', 'integer', `"${inventory}" is not a whole number of items.`);
  else if (inventory !== undefined) data.inventory = Number(inventory);
  if (errors.length > 0 || !retailerId) return { errors };
  const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as ProductFields;
  return { request: { method: 'CREATE', retailerId, data: defined }, errors };
}

/**
 * Imports the feed at `url` into the catalog: every row is checked first (422 `product_feed_invalid` names each
 * bad row by line and column, and nothing is sent), then the rows go as one batch through the batch route's code,
 * a row of a retailer id the catalog has as an UPDATE of the members it gives.
 */
export async function importProductFeed(
  services: Services,
  principal: Principal,
  input: { catalogId: string; url: string; format?: FeedFormat },
): Promise<CommerceProductBatch> {
  // The caller's catalog before a fetch: another owner's id is 404 whatever the URL holds.
  await findCatalog(services, principal, input.catalogId);
  const rows = await readFeed(services, input.url, input.format);
  const requests: BatchRequest[] = [];
  const errors: FieldError[] = [];
  const lineOf = new Map<string, number>();
  for (const row of rows) {
    const checked = rowRequest(row);
    errors.push(...checked.errors);
    if (!checked.request) continue;
    const first = lineOf.get(checked.request.retailerId);
    if (first !== undefined)
      errors.push({
        path: `feed/line/${row.line}/id`,
        code: 'duplicate',
        message: `Line ${row.line}, id: ${checked.request.retailerId} is on line ${first} already.`,
      });
    else lineOf.set(checked.request.retailerId, row.line);
    requests.push(checked.request);
  }
  if (errors.length > 0) throw new ProductFeedInvalidError(errors);
  return createBatch(services, principal, { catalogId: input.catalogId, requests }, true);
}
