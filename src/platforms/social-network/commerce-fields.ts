import { currencyExponent, fromMinorUnits, toMinorUnits } from '../../lib/money.js';
import { type ProductAvailability, type ProductFields, type ProductIssue, ProductRefused } from '../capabilities/commerce.js';

/** A product as the catalog's feed names it (`items_batch` data, and the product fields read back). */
export type FeedProduct = Record<string, unknown>;

/** Our members that the feed names otherwise; the others keep their name in snake case. */
const FEED_NAMES: Record<string, string> = {
  imageLink: 'image_link',
  additionalImageLinks: 'additional_image_link',
  itemGroupId: 'item_group_id',
  productType: 'product_type',
  salePrice: 'sale_price',
};
const PLAIN = ['title', 'description', 'availability', 'condition', 'link', 'brand', 'gtin', 'mpn', 'inventory', 'color', 'size', 'status'];

/** `"12.90 EUR"`: the feed's price, the amount in the currency's major unit with its real exponent. */
const feedPrice = (minor: number, currency: string) => `${fromMinorUnits(minor, currency)} ${currency}`;

/**
 * Our members as the feed names them, for a create (all of them) or an update (those given; null clears one).
 * Prices need the currency: an update that changes a price without naming it gives the product's own.
 */
export function toFeed(fields: ProductFields, currency: string | undefined): FeedProduct {
  const feed: FeedProduct = {};
  for (const name of PLAIN) if (name in fields) feed[name] = fields[name as keyof ProductFields] ?? null;
  if (fields.imageLink !== undefined) feed.image_link = fields.imageLink;
  if (fields.additionalImageLinks !== undefined) feed.additional_image_link = fields.additionalImageLinks.join(',') || null;
  if (fields.itemGroupId !== undefined) feed.item_group_id = fields.itemGroupId;
  if (fields.productType !== undefined) feed.product_type = fields.productType;
  if (currency && fields.price !== undefined) feed.price = feedPrice(fields.price, currency);
  if (currency && fields.salePrice !== undefined)
    feed.sale_price = fields.salePrice === null ? null : feedPrice(fields.salePrice, currency);
  if (fields.salePriceStartAt !== undefined || fields.salePriceEndAt !== undefined)
    feed.sale_price_effective_date =
      fields.salePriceStartAt || fields.salePriceEndAt ? `${fields.salePriceStartAt ?? ''}/${fields.salePriceEndAt ?? ''}` : null;
  return feed;
}

/** A feed price (`"12.90 EUR"`) as minor units and its currency; null when it is not one. */
function parsePrice(value: unknown): { minor: number; currency: string } | null {
  const match = /^(\d+(?:\.\d+)?) ([A-Z]{3})$/.exec(String(value ?? ''));
  if (!match) return null;
  try {
    return { minor: toMinorUnits(match[1]!, match[2]!), currency: match[2]! };
  } catch {
    // A currency ISO 4217 does not list: the price is unreadable, as any other malformed one.
    return null;
  }
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** A product read from the catalog, in our members (what the feed lacks stays out). */
export function fromFeed(feed: FeedProduct): ProductFields {
  const price = parsePrice(feed.price);
  const sale = parsePrice(feed.sale_price);
  const [saleStart, saleEnd] = String(feed.sale_price_effective_date ?? '/').split('/');
  const fields: ProductFields = {
    title: text(feed.title ?? feed.name) ?? '',
    description: text(feed.description) ?? '',
    availability: (text(feed.availability) ?? 'in stock') as ProductAvailability,
    condition: (text(feed.condition) ?? 'new') as ProductFields['condition'],
    price: price?.minor ?? 0,
    salePrice: sale?.minor ?? null,
    salePriceStartAt: text(saleStart),
    salePriceEndAt: text(saleEnd),
    currency: price?.currency ?? 'USD',
    link: text(feed.link ?? feed.url) ?? '',
    imageLink: text(feed.image_link ?? feed.image_url) ?? '',
    additionalImageLinks: (text(feed.additional_image_link) ?? '').split(',').filter(Boolean),
    brand: text(feed.brand),
    gtin: text(feed.gtin),
    mpn: text(feed.mpn),
    inventory: feed.inventory === undefined || feed.inventory === null ? null : Number(feed.inventory),
    itemGroupId: text(feed.item_group_id),
    productType: text(feed.product_type),
    color: text(feed.color),
    size: text(feed.size),
    status: feed.status === 'archived' ? 'archived' : 'active',
  };
  return fields;
}

/**
 * The product API's members for a new product (`clear: false`: members left empty are left out) or a change of one
 * (`clear: true`: a null member is sent empty, which clears it): its own names, and prices in cents (hundredths of
 * the major unit), with the currency. A price the cents cannot say exactly (12.345 KWD) is refused, not rounded.
 */
export function toProductApi(fields: ProductFields, clear: boolean): Record<string, string | number> {
  const feed = toFeed({ ...fields, price: undefined, salePrice: undefined }, undefined);
  const renamed: Record<string, string> = { title: 'name', link: 'url', image_link: 'image_url' };
  const form: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(feed))
    if (value !== undefined && (value !== null || clear)) form[renamed[name] ?? name] = value === null ? '' : String(value);
  const prices = (['price', 'salePrice'] as const).filter((member) => fields[member] !== undefined);
  if (prices.length === 0) return form;
  const currency = fields.currency!;
  const exponent = currencyExponent(currency);
  for (const member of prices) {
    const minor = fields[member];
    const apiName = member === 'price' ? 'price' : 'sale_price';
    if (minor === null || minor === undefined) {
      if (clear) form[apiName] = '';
      continue;
    }
    // Hundredths of the major unit, whatever the currency's exponent (JPY 1500 → 150000; KWD 12.340 → 1234).
    const scale = 10 ** Math.abs(exponent - 2);
    if (exponent > 2 && minor % scale !== 0)
      throw new ProductRefused(
        `the product API takes ${member} in cents, so ${fromMinorUnits(minor, currency)} ${currency} cannot be sent exactly; send it in a batch`,
        false,
      );
    form[apiName] = exponent > 2 ? minor / scale : minor * scale;
  }
  form.currency = currency;
  return form;
}

/** The platform's review diagnostics (`errors` of a product item) as issues. */
export function issuesOf(errors: unknown): ProductIssue[] {
  if (!Array.isArray(errors)) return [];
  return errors.map((error: { error_type?: string; description?: string; title?: string }) => ({
    code: error.error_type ?? 'platform_review',
    message: error.description ?? error.title ?? 'The platform found a problem with the product.',
    field: null,
  }));
}

/** The member a batch line's message is about, where it names one. */
export function fieldOfMessage(message: string): string | null {
  const feedName = /\b(image_link|sale_price|price|availability|retailer id|id)\b/.exec(message)?.[1];
  if (!feedName) return null;
  if (feedName === 'retailer id' || feedName === 'id') return 'retailerId';
  return Object.entries(FEED_NAMES).find(([, feed]) => feed === feedName)?.[0] ?? feedName;
}
