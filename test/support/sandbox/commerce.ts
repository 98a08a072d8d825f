import { expect } from 'chai';
import type { StoredCatalog } from '../../../src/sandbox/social-network/commerce-store.js';
import type { TestApp } from '../app.js';
import { People } from './people.js';

export type CommerceCatalogOnPlatform = Omit<StoredCatalog, 'products' | 'sets'> & {
  products: Array<{ id: string; retailerId: string; data: Record<string, unknown> }>;
  sets: Array<{ id: string; name: string; filter: Record<string, unknown> | null }>;
};

/** The catalogs' side of the social network: businesses behind pages, commerce-manager work, batch faults, counts. */
export class CommercePeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** Who owns the page: a business (verified or not), or none. */
  async ownPage(pageId: string, owner: { business?: boolean; verified?: boolean }): Promise<void> {
    await this.post('commerce/page-owner', { pageId, ...owner });
  }

  /**
   * The catalogs' settings and faults: `processMs` (a batch's processing), `reviewMs` (a product's review),
   * `stuckBatches` (the next batches never finish), `loseNextBatchAnswer` (the next batch is taken, its answer lost),
   * `loseNextAnswerOf` (the next call of that kind is done, its answer lost).
   */
  async configure(settings: {
    processMs?: number;
    reviewMs?: number;
    stuckBatches?: number;
    loseNextBatchAnswer?: boolean;
    loseNextAnswerOf?: 'deleteCatalog' | 'updateProduct';
  }): Promise<void> {
    await this.post('commerce/settings', settings);
  }

  /** The platform restarts and forgets every batch handle it gave. */
  async forgetHandles(): Promise<void> {
    await this.post('commerce/forget-handles');
  }

  /** A shop set up in the commerce manager for the page. */
  newShop(
    pageId: string,
    shop: { name: string; status?: string; catalogId?: string },
  ): Promise<{ id: string; merchantSettingsId: string }> {
    return this.post('commerce/shops', { pageId, ...shop });
  }

  /** Someone adds products in the commerce manager (the feed's names: `id`, `title`, `price` as `"9.90 EUR"` …). */
  async addByHand(catalogId: string, products: Array<Record<string, unknown>>): Promise<void> {
    const { errors } = await this.post<{ errors: unknown[] }>(`commerce/catalogs/${catalogId}/products`, { products });
    expect(errors, 'products the commerce manager refused').to.deep.equal([]);
  }

  /** Someone deletes the catalog in the commerce manager. */
  async deleteByHand(catalogId: string): Promise<void> {
    await this.post(`commerce/catalogs/${catalogId}/delete`);
  }

  onPlatform(catalogId: string): Promise<CommerceCatalogOnPlatform> {
    return this.get(`commerce/catalogs/${catalogId}`);
  }

  /**
   * Calls the catalogs received, by kind (`itemsBatch`, `checkBatch`, `listProducts`, `createProduct`, `updateProduct`,
   * `createCatalog`, `deleteCatalog`, `updateProductSet`, `deleteProductSet`).
   */
  async calls(): Promise<Record<string, number>> {
    return (await this.get<{ calls: Record<string, number> }>('commerce/calls')).calls;
  }
}
