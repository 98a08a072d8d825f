import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

/** A catalog as the platform shows it. */
export interface PlatformCatalog {
  id: string;
  name: string;
  vertical: string;
  productCount: number;
  businessId: string;
}

export type ProductAvailability = 'in stock' | 'out of stock' | 'preorder' | 'available for order' | 'discontinued';

/** A product's members as the contract names them (money in minor units of `currency`). */
export interface ProductFields {
  title?: string;
  description?: string;
  availability?: ProductAvailability;
  condition?: 'new' | 'refurbished' | 'used';
  price?: number;
  salePrice?: number | null;
  salePriceStartAt?: string | null;
  salePriceEndAt?: string | null;
  currency?: string;
  link?: string;
  imageLink?: string;
  additionalImageLinks?: string[];
  brand?: string | null;
  gtin?: string | null;
  mpn?: string | null;
  inventory?: number | null;
  itemGroupId?: string | null;
  productType?: string | null;
  color?: string | null;
  size?: string | null;
  status?: 'active' | 'archived';
}

/** One reason the platform gave about a product (a refusal, or a warning). */
export interface ProductIssue {
  code: string;
  message: string;
  field: string | null;
}

/** A product as the platform shows it: its members, its review and what it says is wrong with it. */
export interface PlatformProduct {
  id: string;
  retailerId: string;
  fields: ProductFields;
  reviewStatus: 'pending' | 'approved' | 'rejected' | 'outdated' | null;
  issues: ProductIssue[];
}

/** One change of a platform batch, by the product's retailer id. */
export interface ProductChange {
  method: 'CREATE' | 'UPDATE' | 'DELETE';
  retailerId: string;
  fields?: ProductFields;
}

/** Where a platform batch stands: finished, with the issues of its lines (by position in the batch), or not yet. */
export type BatchProgress =
  | { finished: false }
  | { finished: true; errors: Array<{ line: number; issue: ProductIssue }>; warnings: Array<{ line: number; issue: ProductIssue }> };

/** A condition of a product-set filter, in our own syntax (the contract's `CommerceProductSetFilter`). */
export interface SetCondition {
  field:
    'retailerId' | 'title' | 'brand' | 'availability' | 'condition' | 'price' | 'salePrice' | 'productType' | 'itemGroupId' | 'inventory';
  operator: 'is_any' | 'is_not_any' | 'eq' | 'neq' | 'contains' | 'not_contains' | 'gt' | 'gte' | 'lt' | 'lte';
  value?: string | number;
  values?: Array<string | number>;
}

export interface SetFilter {
  combinator: 'and' | 'or';
  conditions: SetCondition[];
}

export interface PlatformProductSet {
  id: string;
  name: string;
  /** The set's filter in our syntax; null for every product, or (`readable: false`) for a rule ours cannot say. */
  filter: SetFilter | null;
  readable: boolean;
  productCount: number;
}

/** A shop as the platform still shows it after the checkout sunset (a storefront that sends buyers to the website). */
export interface PlatformShop {
  id: string;
  name: string;
  merchantSettingsId: string;
  status: 'active' | 'pending_review' | 'rejected' | 'disabled' | 'draft';
  catalogId: string | null;
  url: string | null;
}

/** The platform no longer knows the batch handle (it restarted, or forgot it): the batch must be sent again. */
export class BatchHandleUnknown extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** The platform refused the one product (a member it does not take, an image it cannot fetch, a policy). */
export class ProductRefused extends PlatformError {
  constructor(
    message: string,
    readonly retailerIdTaken: boolean,
  ) {
    super('invalid_request', message);
  }
}

/** The platform has no such catalog, product or product set (any more), or does not show it to this token. */
export class CommerceObjectGone extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** A page of a list the platform gives, with its own token of the next page (null on the last). */
export interface PlatformListPage<T> {
  items: T[];
  next: string | null;
}

/**
 * Product catalogs of the businesses behind page accounts: catalogs, their products (one at a time, or in
 * asynchronous batches the platform processes and reports line by line), product sets and shops.
 */
export interface Commerce {
  /** The permissions every commerce call needs. */
  readonly scopes: readonly string[];
  /** The most changes one platform batch takes. */
  readonly maxBatchSize: number;
  /** The business that owns the page, or null when none does. */
  pageBusiness(account: AdapterAccount): Promise<string | null>;
  /** The catalogs the business owns and those of its clients it may manage. */
  catalogs(account: AdapterAccount, businessId: string): Promise<PlatformCatalog[]>;
  createCatalog(account: AdapterAccount, businessId: string, input: { name: string; vertical: string }): Promise<PlatformCatalog>;
  /** One catalog as the platform shows it now; CommerceObjectGone when it has no such catalog. */
  catalog(account: AdapterAccount, catalogId: string): Promise<PlatformCatalog>;
  /** Deletes the catalog, its products and sets with it; CommerceObjectGone when the platform has no such catalog. */
  deleteCatalog(account: AdapterAccount, catalogId: string): Promise<void>;
  /** One page of the catalog's products (`retailerIds`: only those). */
  products(
    account: AdapterAccount,
    catalogId: string,
    page: { after: string | null; retailerIds?: string[] },
  ): Promise<PlatformListPage<PlatformProduct>>;
  /** Creates one product at once; ProductRefused when the platform refuses it. */
  createProduct(account: AdapterAccount, catalogId: string, retailerId: string, fields: ProductFields): Promise<{ id: string }>;
  /**
   * Changes members of one product (by the platform's id; null clears one), setting them to the values given: sent
   * again, it changes nothing more. ProductRefused when the platform refuses the change.
   */
  updateProduct(account: AdapterAccount, productId: string, fields: ProductFields): Promise<void>;
  /**
   * Sends changes as one platform batch: its handle. A change sent twice changes nothing more (creates are
   * upserts), so a batch whose answer was lost may be sent again.
   */
  sendBatch(account: AdapterAccount, catalogId: string, changes: ProductChange[]): Promise<string>;
  /** Where the batch stands; BatchHandleUnknown when the platform does not know the handle. */
  batchProgress(account: AdapterAccount, catalogId: string, handle: string): Promise<BatchProgress>;
  /** The catalog's product sets, with the platform's counts. */
  productSets(account: AdapterAccount, catalogId: string): Promise<PlatformProductSet[]>;
  /** A new set of the products matching `filter` (every product: null); the platform refusing the filter is invalid_request. */
  createProductSet(
    account: AdapterAccount,
    catalogId: string,
    input: { name: string; filter: SetFilter | null },
  ): Promise<PlatformProductSet>;
  /** One product set as the platform shows it now; CommerceObjectGone when it has no such set. */
  productSet(account: AdapterAccount, productSetId: string): Promise<PlatformProductSet>;
  /** Renames a set or changes its filter (null: every product): the set as it is then, its count too. */
  updateProductSet(
    account: AdapterAccount,
    productSetId: string,
    change: { name?: string; filter?: SetFilter | null },
  ): Promise<PlatformProductSet>;
  /** Deletes the set (its products stay); CommerceObjectGone when the platform has no such set. */
  deleteProductSet(account: AdapterAccount, productSetId: string): Promise<void>;
  /** The shops of the page's commerce accounts. */
  shops(account: AdapterAccount): Promise<PlatformShop[]>;
}
