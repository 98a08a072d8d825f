import { ApiError } from '../../lib/errors.js';
import { type ClaimLoop, claimInBatches, type LeasedWork, type LeaseWorkerSettings } from '../../lib/lease-worker.js';
import type { PlatformProduct } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import { ownerItself } from '../auth/principal.js';
import { withCommerce } from './access.js';
import { keepPlatformProducts, readProducts } from './import.js';

/** Products looked at in one turn at most (across catalogs). */
const CLAIM_PRODUCTS = 500;

/** The products of one catalog due for a look. */
interface DueCatalog {
  catalogId: string;
  ownerId: string;
  accountId: string;
  platformCatalogId: string;
  retailerIds: string[];
}

/** What one turn claimed: due products by catalog. */
interface ReviewLook {
  catalogs: DueCatalog[];
}

/**
 * Keeps the platform's review of products and its diagnostics up to date by polling (the platform announces no
 * catalog event): a synced product whose review is pending is read again with backoff, each look waiting as long
 * as the product had waited at the previous one (between the first and the last look interval). Claiming a product
 * moves its `updated_at` to now, which is its lease as well: another process takes it only at its next look, and
 * the products of a worker that died are looked at again then. A catalog the platform refuses to read (throttled,
 * a permission gone) waits for its products' next look.
 */
export class CommerceReviewWork implements LeasedWork<ReviewLook, Map<string, PlatformProduct[]>> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { reviewFirstLookMs, leaseSeconds } = services.config.commerce;
    this.settings = { name: 'socialgate-commerce-review', channels: [], concurrency: 1, pollMs: reviewFirstLookMs, loops: 1, leaseSeconds };
  }

  turn(loop: ClaimLoop<ReviewLook>): Promise<void> {
    return claimInBatches(loop, 1, this.settings.pollMs, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<ReviewLook[]> {
    if (n <= 0) return [];
    const { db, config } = this.services;
    const { reviewFirstLookMs, reviewLastLookMs } = config.commerce;
    const { rows } = (await db.raw(
      `WITH due AS (
         SELECT id FROM commerce_products
         WHERE review_status = 'pending' AND sync_status = 'synced' AND deleted_at IS NULL AND platform_product_id IS NOT NULL
           AND updated_at + least(greatest(updated_at - coalesce(synced_at, created_at), make_interval(secs => ?)),
                                  make_interval(secs => ?)) <= now()
         ORDER BY updated_at LIMIT ? FOR UPDATE SKIP LOCKED)
       UPDATE commerce_products p SET updated_at = now()
       FROM due, commerce_catalogs c
       WHERE p.id = due.id AND c.id = p.catalog_id
       RETURNING p.catalog_id AS "catalogId", p.retailer_id AS "retailerId", c.owner_id AS "ownerId",
         c.account_id AS "accountId", c.platform_catalog_id AS "platformCatalogId"`,
      [reviewFirstLookMs / 1000, reviewLastLookMs / 1000, CLAIM_PRODUCTS],
    )) as { rows: Array<Omit<DueCatalog, 'retailerIds'> & { retailerId: string }> };
    if (rows.length === 0) return [];
    const catalogs = new Map<string, DueCatalog>();
    for (const { retailerId, ...catalog } of rows) {
      const due = catalogs.get(catalog.catalogId) ?? { ...catalog, retailerIds: [] };
      due.retailerIds.push(retailerId);
      catalogs.set(catalog.catalogId, due);
    }
    return [{ catalogs: [...catalogs.values()] }];
  }

  async process(look: ReviewLook): Promise<Map<string, PlatformProduct[]>> {
    const read = new Map<string, PlatformProduct[]>();
    for (const catalog of look.catalogs) {
      try {
        const products = await withCommerce(
          this.services,
          ownerItself(catalog.ownerId),
          { accountId: catalog.accountId },
          (commerce, account) => readProducts(commerce, account, catalog.platformCatalogId, catalog.retailerIds),
        );
        read.set(catalog.catalogId, products);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        this.services.logger.warn(
          { err: error, catalogId: catalog.catalogId },
          'commerce review: the catalog could not be read; next look later',
        );
      }
    }
    return read;
  }

  async record(_look: ReviewLook, read: Map<string, PlatformProduct[]>): Promise<void> {
    for (const [catalogId, products] of read) await keepPlatformProducts(this.services.db, catalogId, products);
  }

  /** Nothing to renew: a claimed product is not due again before its next look. */
  async renew(): Promise<void> {}

  describe(look: ReviewLook): Record<string, unknown> {
    return { catalogs: look.catalogs.map((catalog) => catalog.catalogId) };
  }
}
