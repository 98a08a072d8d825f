import type { ProductFields, ProductIssue, SetFilter } from '../../platforms/capabilities/commerce.js';

// The rows of the commerce area's tables, as Knex reads them (columns in camelCase).

/** A row of `commerce_catalogs`. */
export interface CatalogRow {
  id: string;
  ownerId: string;
  profileId: string;
  accountId: string;
  platform: string;
  platformCatalogId: string;
  businessId: string;
  name: string;
  vertical: string;
  productCount: number;
  productsReadAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of `commerce_products`: `fields` holds every member but the retailer id and availability. */
export interface ProductRow {
  id: string;
  catalogId: string;
  retailerId: string;
  platformProductId: string | null;
  fields: ProductFields;
  availability: string;
  reviewStatus: 'pending' | 'approved' | 'rejected' | 'outdated' | null;
  syncStatus: 'pending' | 'synced' | 'failed';
  syncOperation: 'create' | 'update' | 'delete';
  syncBatchId: string | null;
  syncErrors: ProductIssue[];
  syncedAt: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of `commerce_batches`. */
export interface BatchRow {
  id: string;
  ownerId: string;
  catalogId: string;
  status: 'processing' | 'finished';
  itemCount: number;
  succeededCount: number;
  failedCount: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A row of `commerce_batch_parts`: one platform batch, sent and then polled by the worker. */
export interface PartRow {
  batchId: string;
  part: number;
  accountId: string;
  status: 'unsent' | 'sent' | 'done';
  handle: string | null;
  generation: number;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  giveUpAt: Date;
}

/** A row of `commerce_batch_items`. */
export interface ItemRow {
  batchId: string;
  index: number;
  part: number | null;
  method: 'CREATE' | 'UPDATE' | 'DELETE';
  retailerId: string;
  productId: string | null;
  data: ProductFields | null;
  status: 'pending' | 'succeeded' | 'failed';
  errors: ProductIssue[];
}

/** A row of `commerce_product_sets`. */
export interface ProductSetRow {
  id: string;
  catalogId: string;
  platformProductSetId: string;
  name: string;
  filter: SetFilter | null;
  productCount: number;
  createdAt: Date;
  updatedAt: Date;
}
