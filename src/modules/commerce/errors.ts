import { ApiError, type FieldError, UnprocessableError } from '../../lib/errors.js';

/** 409 `product_retailer_id_taken`: the catalog has a live product with this retailer id already. */
export class ProductRetailerIdTakenError extends ApiError {
  constructor(retailerId: string) {
    super(
      409,
      'product_retailer_id_taken',
      'Retailer id taken',
      `The catalog has a product with retailerId ${retailerId} already; change it with POST /commerce/products/batch (UPDATE).`,
    );
  }
}

/** 422 `commerce_business_required`: the page is owned by no business, and no `businessId` was given. */
export class CommerceBusinessRequiredError extends UnprocessableError {
  constructor() {
    super(
      'commerce_business_required',
      'A business is required',
      'The page is not owned by a business on the platform, so it cannot own catalogs; give businessId or move the page into a business.',
    );
  }
}

/** 422 `product_rejected`: the platform refused the product; nothing was recorded. */
export class ProductRejectedError extends UnprocessableError {
  constructor(reason: string) {
    super('product_rejected', 'The platform refused the product', `The platform refused the product: ${reason}`);
  }
}

/** 409 `product_sync_pending`: a batch's change of the product is still on its way to the platform. */
export class ProductSyncPendingError extends ApiError {
  constructor(batchId: string | null) {
    super(
      409,
      'product_sync_pending',
      'A change is on its way',
      `Batch ${batchId ?? '(unknown)'} is still sending a change of this product to the platform; change it once the batch has finished.`,
    );
  }
}

/** 409 `product_not_on_platform`: the product's create failed, so the platform has nothing to change. */
export class ProductNotOnPlatformError extends ApiError {
  constructor() {
    super(
      409,
      'product_not_on_platform',
      'The product is not on the platform',
      'The platform refused to create this product (see sync.errors); create it again with POST /commerce/products/batch.',
    );
  }
}

/** 404 `catalog_not_found`: the platform no longer has the catalog (deleted there); we have forgotten it too. */
export class CatalogNotFoundError extends ApiError {
  constructor() {
    super(
      404,
      'catalog_not_found',
      'Catalog not found',
      'The catalog is no longer on the platform (it was deleted there); it and its products, sets and batches are forgotten here too.',
    );
  }
}

/** 422 `product_feed_unreadable`: the feed could not be fetched, or is not CSV or RSS XML; `reason` says which. */
export class ProductFeedUnreadableError extends UnprocessableError {
  constructor(reason: string) {
    super('product_feed_unreadable', 'The product feed cannot be read', `The product feed cannot be read: ${reason}`);
  }
}

/** 422 `product_feed_invalid`: rows of the feed break its rules, each in `errors` by line and column; nothing was sent. */
export class ProductFeedInvalidError extends UnprocessableError {
  constructor(errors: FieldError[]) {
    const rows = new Set(errors.map((error) => error.path.split('/')[2])).size;
    super(
      'product_feed_invalid',
      'The product feed is invalid',
      `${rows} row${rows === 1 ? '' : 's'} of the feed break${rows === 1 ? 's' : ''} its rules; nothing was sent.`,
      errors,
    );
  }
}
