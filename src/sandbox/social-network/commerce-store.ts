/** A product as the catalog keeps it, in the feed's own names (`title`, `price` as `"12.90 EUR"`, `image_link`). */
export interface StoredProduct {
  id: string;
  retailerId: string;
  data: Record<string, unknown>;
  /** When its last change was made: the review decides `reviewMs` later. */
  changedAt: number;
}

export interface StoredCatalog {
  id: string;
  businessId: string;
  name: string;
  vertical: string;
  products: Map<string, StoredProduct>;
  sets: Map<string, { id: string; name: string; filter: Record<string, unknown> | null }>;
}

export interface LineIssue {
  line: number;
  id: string;
  message: string;
}

/** An `items_batch` handle: processed `processMs` after it was sent, unless stuck. Kept in memory only. */
export interface StoredBatch {
  handle: string;
  catalogId: string;
  requests: Array<{ method?: string; data?: Record<string, unknown> }>;
  allowUpsert: boolean;
  processAt: number;
  stuck: boolean;
  outcome: { errors: LineIssue[]; warnings: LineIssue[] } | null;
}

export const AVAILABILITIES = ['in stock', 'out of stock', 'preorder', 'available for order', 'discontinued'];
const PRICE = /^\d+(\.\d{1,3})? [A-Z]{3}$/;
/** The currencies the catalog takes prices in (a sample of the platform's list). */
const CURRENCIES = new Set(['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'PLN', 'JPY', 'KRW', 'KWD', 'BHD']);

/** What the review says of a product: a title naming something the commerce policies forbid is rejected. */
export function review(product: StoredProduct, reviewMs: number): { status: string; errors: Array<Record<string, string>> } {
  if (Date.now() < product.changedAt + reviewMs) return { status: 'pending', errors: [] };
  if (/weapon|tobacco/i.test(String(product.data.title ?? '')))
    return {
      status: 'rejected',
      errors: [{ error_type: 'policy_violation', description: 'The product breaks the commerce policies (prohibited item).' }],
    };
  return { status: 'approved', errors: [] };
}

/**
 * Applies a batch's lines in order, each alone: a line that fails (no id, a duplicate id, a missing image link,
 * a price not written `"12.90 EUR"`, an unknown availability) changes nothing and is reported by its line. A
 * create of an existing id is an update when the batch allows upserts, as an update of a missing one is a create.
 */
export function applyBatch(
  catalog: StoredCatalog,
  batch: StoredBatch,
  newId: () => string,
): { errors: LineIssue[]; warnings: LineIssue[] } {
  const errors: LineIssue[] = [];
  const warnings: LineIssue[] = [];
  const seen = new Set<string>();
  batch.requests.forEach((request, line) => {
    const data = request.data ?? {};
    const id = typeof data.id === 'string' ? data.id : '';
    const fail = (message: string) => errors.push({ line, id, message });
    if (!id) return fail('The id (retailer id) is missing.');
    if (seen.has(id)) return fail(`Duplicate retailer id ${id} in the batch.`);
    seen.add(id);
    const existing = catalog.products.get(id);
    if (request.method === 'DELETE') {
      if (existing) catalog.products.delete(id);
      else warnings.push({ line, id, message: `No product with retailer id ${id}; nothing deleted.` });
      return;
    }
    if (request.method !== 'CREATE' && request.method !== 'UPDATE') return fail(`Unknown method ${String(request.method)}.`);
    if (request.method === 'CREATE' && existing && !batch.allowUpsert) return fail(`Duplicate retailer id ${id}: the product exists.`);
    if (request.method === 'UPDATE' && !existing && !batch.allowUpsert) return fail(`No product with retailer id ${id}.`);
    const merged: Record<string, unknown> = { ...(existing?.data ?? {}), ...data };
    for (const [name, value] of Object.entries(data)) if (value === null || value === '') delete merged[name];
    if (!merged.image_link) return fail('Missing image_link: every product needs an image.');
    if (!merged.link) return fail('Missing link: every product needs the page where it is sold.');
    if (/missing/.test(String(merged.image_link)))
      return fail(`The image at image_link could not be downloaded (HTTP 404): ${String(merged.image_link)}`);
    for (const member of ['price', 'sale_price'])
      if (merged[member] !== undefined && (!PRICE.test(String(merged[member])) || !CURRENCIES.has(String(merged[member]).slice(-3))))
        return fail(`Invalid ${member} "${String(merged[member])}": write the amount and the currency, like "12.90 EUR".`);
    if (!AVAILABILITIES.includes(String(merged.availability))) return fail(`Unknown availability "${String(merged.availability)}".`);
    if (!merged.brand && !merged.gtin && !merged.mpn)
      warnings.push({ line, id, message: 'No brand, gtin or mpn: the product may not show in shops.' });
    catalog.products.set(id, { id: existing?.id ?? newId(), retailerId: id, data: merged, changedAt: Date.now() });
  });
  return { errors, warnings };
}

/**
 * A product in the product API's names (`name`, `url`, `image_url`, prices in cents with `currency`) in the feed's
 * (`title`, `link`, `image_link`, `"12.90 EUR"`); an empty member stays empty, which clears it in an update.
 */
export function feedOfProductApi(params: Record<string, string | undefined>): Record<string, unknown> {
  const {
    retailer_id: retailerId,
    name,
    url,
    image_url: imageUrl,
    price,
    sale_price: salePrice,
    currency,
    access_token: _token,
    ...rest
  } = params;
  const amount = (cents: string) => (cents === '' ? '' : `${(Number(cents) / 100).toFixed(2)} ${currency}`);
  const feed: Record<string, unknown> = { ...rest };
  const named: Record<string, string | undefined> = { id: retailerId, title: name, link: url, image_link: imageUrl };
  for (const [member, value] of Object.entries(named)) if (value !== undefined) feed[member] = value;
  if (price !== undefined) feed.price = amount(price);
  if (salePrice !== undefined) feed.sale_price = amount(salePrice);
  return feed;
}

/** The product's price in cents (hundredths of the currency's major unit), as the filter language compares it. */
function cents(price: unknown): number | null {
  const match = /^(\d+(?:\.\d+)?) [A-Z]{3}$/.exec(String(price ?? ''));
  return match ? Math.round(Number(match[1]) * 100) : null;
}

const FILTER_FIELDS: Record<string, (data: Record<string, unknown>) => unknown> = {
  retailer_id: (data) => data.id,
  name: (data) => data.title,
  brand: (data) => data.brand,
  availability: (data) => data.availability,
  condition: (data) => data.condition,
  price: (data) => cents(data.price),
  sale_price: (data) => cents(data.sale_price),
  product_type: (data) => data.product_type,
  retailer_product_group_id: (data) => data.item_group_id,
  inventory: (data) => data.inventory,
};

/**
 * The product-set rule evaluator: `{and|or: [rules]}` or `{field: {operator: value}}`, with the filter language's
 * operators (`eq`, `neq`, `lt`, `lte`, `gt`, `gte`, `contains`, `not_contains`, `i_contains`, `i_not_contains`,
 * `is_any`, `is_not_any`); anything else is refused (the caller answers #100).
 */
export function matches(filter: Record<string, unknown>, data: Record<string, unknown>): boolean {
  const [key, rule] = Object.entries(filter)[0] ?? [];
  if (key === undefined) throw new Error('An empty filter.');
  if (key === 'and' || key === 'or') {
    if (!Array.isArray(rule)) throw new Error(`"${key}" takes a list of rules.`);
    const results = rule.map((one) => matches(one as Record<string, unknown>, data));
    return key === 'and' ? results.every(Boolean) : results.some(Boolean);
  }
  const read = FILTER_FIELDS[key];
  if (!read) throw new Error(`Unknown filter field ${key}.`);
  const [operator, expected] = Object.entries(rule as Record<string, unknown>)[0] ?? [];
  const actual = read(data);
  const text = (value: unknown) => String(value ?? '').toLowerCase();
  switch (operator) {
    case 'eq':
      return String(actual) === String(expected);
    case 'neq':
      return String(actual) !== String(expected);
    case 'lt':
      return Number(actual) < Number(expected);
    case 'lte':
      return Number(actual) <= Number(expected);
    case 'gt':
      return Number(actual) > Number(expected);
    case 'gte':
      return Number(actual) >= Number(expected);
    case 'contains':
      return String(actual ?? '').includes(String(expected));
    case 'not_contains':
      return !String(actual ?? '').includes(String(expected));
    case 'i_contains':
      return text(actual).includes(text(expected));
    case 'i_not_contains':
      return !text(actual).includes(text(expected));
    case 'is_any':
      return Array.isArray(expected) && expected.map(String).includes(String(actual));
    case 'is_not_any':
      return Array.isArray(expected) && !expected.map(String).includes(String(actual));
    default:
      throw new Error(`Unknown filter operator ${String(operator)}.`);
  }
}
