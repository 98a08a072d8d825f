import type { components } from '../../../generated/api.js';
import type { BatchRow, CatalogRow, ItemRow, ProductRow, ProductSetRow } from './rows.js';

export type CommerceCatalog = components['schemas']['CommerceCatalog'];
export type CommerceProduct = components['schemas']['CommerceProduct'];
export type CommerceProductBatch = components['schemas']['CommerceProductBatch'];
export type CommerceProductSet = components['schemas']['CommerceProductSet'];

const iso = (time: Date | null) => (time ? new Date(time).toISOString() : null);

export function presentCatalog(row: CatalogRow): CommerceCatalog {
  return {
    id: row.id,
    profileId: row.profileId,
    accountId: row.accountId,
    platform: row.platform as CommerceCatalog['platform'],
    platformCatalogId: row.platformCatalogId,
    businessId: row.businessId,
    name: row.name,
    vertical: row.vertical as CommerceCatalog['vertical'],
    productCount: row.productCount,
    productsReadAt: iso(row.productsReadAt),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

export function presentProduct(row: ProductRow): CommerceProduct {
  const f = row.fields;
  return {
    id: row.id,
    catalogId: row.catalogId,
    retailerId: row.retailerId,
    platformProductId: row.platformProductId,
    title: f.title ?? '',
    description: f.description ?? '',
    availability: row.availability as CommerceProduct['availability'],
    condition: f.condition ?? 'new',
    price: f.price ?? 0,
    salePrice: f.salePrice ?? null,
    salePriceStartAt: f.salePriceStartAt ?? null,
    salePriceEndAt: f.salePriceEndAt ?? null,
    currency: f.currency ?? 'USD',
    link: f.link ?? '',
    imageLink: f.imageLink ?? '',
    additionalImageLinks: f.additionalImageLinks ?? [],
    brand: f.brand ?? null,
    gtin: f.gtin ?? null,
    mpn: f.mpn ?? null,
    inventory: f.inventory ?? null,
    itemGroupId: f.itemGroupId ?? null,
    productType: f.productType ?? null,
    color: f.color ?? null,
    size: f.size ?? null,
    status: f.status ?? 'active',
    reviewStatus: row.reviewStatus,
    sync: {
      status: row.syncStatus,
      operation: row.syncOperation,
      batchId: row.syncBatchId,
      errors: row.syncErrors,
      syncedAt: iso(row.syncedAt),
    },
    deletedAt: iso(row.deletedAt),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

export function presentBatch(row: BatchRow, items: ItemRow[]): CommerceProductBatch {
  return {
    id: row.id,
    catalogId: row.catalogId,
    status: row.status,
    itemCount: row.itemCount,
    succeededCount: row.succeededCount,
    failedCount: row.failedCount,
    items: items.map((item) => ({
      index: item.index,
      method: item.method,
      retailerId: item.retailerId,
      productId: item.productId,
      status: item.status,
      errors: item.errors,
    })),
    createdAt: iso(row.createdAt)!,
    finishedAt: iso(row.finishedAt),
  };
}

export function presentProductSet(row: ProductSetRow): CommerceProductSet {
  return {
    id: row.id,
    catalogId: row.catalogId,
    platformProductSetId: row.platformProductSetId,
    name: row.name,
    filter: row.filter,
    productCount: row.productCount,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}
