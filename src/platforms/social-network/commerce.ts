import {
  BatchHandleUnknown,
  CommerceObjectGone,
  type BatchProgress,
  type Commerce,
  type PlatformCatalog,
  type PlatformListPage,
  type PlatformProduct,
  type PlatformProductSet,
  type PlatformShop,
  type ProductChange,
  type ProductFields,
  ProductRefused,
  type SetFilter,
} from '../capabilities/commerce.js';
import type { PlatformError } from '../errors.js';
import { classifyMetaError, type GraphErrorBody, type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';
import { type FeedProduct, fieldOfMessage, fromFeed, issuesOf, toFeed, toProductApi } from './commerce-fields.js';
import { fromGraphFilter, toGraphFilter } from './commerce-filter.js';

interface GraphCatalog {
  id: string;
  name?: string;
  vertical?: string;
  product_count?: number;
  business?: { id: string };
}
interface GraphProductSet {
  id: string;
  name?: string;
  filter?: string | null;
  product_count?: number;
}
interface GraphLine {
  line: number;
  id?: string;
  message: string;
}
interface GraphShop {
  id: string;
  name?: string;
  review_status?: string;
  product_catalog?: { id: string } | null;
  shop_url?: string | null;
}

const CATALOG_FIELDS = 'id,name,vertical,product_count,business';
const PRODUCT_FIELDS =
  'id,retailer_id,title,name,description,availability,condition,price,sale_price,sale_price_effective_date,link,url,image_link,image_url,' +
  'additional_image_link,brand,gtin,mpn,inventory,item_group_id,product_type,color,size,status,review_status,errors';
const SET_FIELDS = 'id,name,filter,product_count';
const PAGE_SIZE = 100;
/** Meta's own limit of one `items_batch` call. */
const MAX_BATCH_SIZE = 5000;
const SHOP_STATUS: Record<string, PlatformShop['status']> = {
  active: 'active',
  approved: 'active',
  pending: 'pending_review',
  pending_review: 'pending_review',
  rejected: 'rejected',
  disabled: 'disabled',
  draft: 'draft',
};

/** A refusal of one product: a retailer id the catalog has (10800), or another reason in the platform's words. */
function classifyProductError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  if (error.kind !== 'invalid_request') return error;
  return new ProductRefused(error.message, error.details.platformCode === 10800);
}

/** "No such object" (100, subcode 33): the catalog or set is gone from the platform. */
function classifyGone(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  const graph = (body as GraphErrorBody | undefined)?.error;
  return graph?.code === 100 && graph.error_subcode === 33 ? new CommerceObjectGone(error.message) : error;
}

function catalogOf(raw: GraphCatalog, businessId: string): PlatformCatalog {
  return {
    id: raw.id,
    name: raw.name ?? raw.id,
    vertical: raw.vertical ?? 'commerce',
    productCount: raw.product_count ?? 0,
    businessId: raw.business?.id ?? businessId,
  };
}

function productSetOf(raw: GraphProductSet): PlatformProductSet {
  const rule = raw.filter ? (JSON.parse(raw.filter) as unknown) : null;
  const filter = rule === null ? null : fromGraphFilter(rule);
  return { id: raw.id, name: raw.name ?? raw.id, filter, readable: rule === null || filter !== null, productCount: raw.product_count ?? 0 };
}

/** Every page of a Graph list (bounded by the list's own size). */
async function allPages<T>(read: (after: string | undefined) => Promise<GraphList<T>>): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  do {
    const page = await read(after);
    items.push(...page.data);
    after = nextCursorOf(page) ?? undefined;
  } while (after);
  return items;
}

/**
 * Catalogs of the business behind a page (Graph v26), with the page's token and `catalog_management`: products
 * one at a time through the product API, many through `items_batch` (creates sent as upserts, so a batch sent
 * again after a lost answer changes nothing more), product sets in the Graph's filter language, and the shops of
 * the page's commerce accounts (after the checkout sunset, storefronts that send buyers to the seller's website).
 */
export class SocialNetworkCommerce implements Commerce {
  readonly scopes = ['catalog_management'] as const;
  readonly maxBatchSize = MAX_BATCH_SIZE;

  constructor(private readonly client: SocialNetworkClient) {}

  async pageBusiness(account: AdapterAccount): Promise<string | null> {
    const page = await this.client.call<{ business?: { id: string } }>('GET', account.platformAccountId, {
      token: account.credentials.accessToken,
      query: { fields: 'business' },
    });
    return page.business?.id ?? null;
  }

  async catalogs(account: AdapterAccount, businessId: string): Promise<PlatformCatalog[]> {
    const token = account.credentials.accessToken;
    const lists = await Promise.all(
      ['owned_product_catalogs', 'client_product_catalogs'].map((edge) =>
        allPages((after) =>
          this.client.call<GraphList<GraphCatalog>>('GET', `${businessId}/${edge}`, {
            token,
            query: { fields: CATALOG_FIELDS, limit: PAGE_SIZE, after },
          }),
        ),
      ),
    );
    return lists.flat().map((raw) => catalogOf(raw, businessId));
  }

  async createCatalog(account: AdapterAccount, businessId: string, input: { name: string; vertical: string }): Promise<PlatformCatalog> {
    const { id } = await this.client.call<{ id: string }>('POST', `${businessId}/owned_product_catalogs`, {
      token: account.credentials.accessToken,
      form: { name: input.name, vertical: input.vertical },
    });
    return { id, name: input.name, vertical: input.vertical, productCount: 0, businessId };
  }

  async catalog(account: AdapterAccount, catalogId: string): Promise<PlatformCatalog> {
    const raw = await this.client.call<GraphCatalog>(
      'GET',
      catalogId,
      { token: account.credentials.accessToken, query: { fields: CATALOG_FIELDS } },
      classifyGone,
    );
    return catalogOf(raw, raw.business?.id ?? '');
  }

  async deleteCatalog(account: AdapterAccount, catalogId: string): Promise<void> {
    await this.client.call('DELETE', catalogId, { token: account.credentials.accessToken }, classifyGone);
  }

  async products(
    account: AdapterAccount,
    catalogId: string,
    page: { after: string | null; retailerIds?: string[] },
  ): Promise<PlatformListPage<PlatformProduct>> {
    const list = await this.client.call<GraphList<FeedProduct & { id: string; retailer_id: string }>>('GET', `${catalogId}/products`, {
      token: account.credentials.accessToken,
      query: {
        fields: PRODUCT_FIELDS,
        limit: PAGE_SIZE,
        after: page.after ?? undefined,
        filter: page.retailerIds ? JSON.stringify({ retailer_id: { is_any: page.retailerIds } }) : undefined,
      },
    });
    return {
      items: list.data.map((raw) => ({
        id: raw.id,
        retailerId: raw.retailer_id,
        fields: fromFeed(raw),
        reviewStatus: (['pending', 'approved', 'rejected', 'outdated'] as const).find((s) => s === raw.review_status) ?? null,
        issues: issuesOf(raw.errors),
      })),
      next: nextCursorOf(list),
    };
  }

  async createProduct(account: AdapterAccount, catalogId: string, retailerId: string, fields: ProductFields): Promise<{ id: string }> {
    return this.client.call<{ id: string }>(
      'POST',
      `${catalogId}/products`,
      { token: account.credentials.accessToken, form: { ...toProductApi(fields, false), retailer_id: retailerId } },
      classifyProductError,
    );
  }

  async updateProduct(account: AdapterAccount, productId: string, fields: ProductFields): Promise<void> {
    await this.client.call(
      'POST',
      productId,
      { token: account.credentials.accessToken, form: toProductApi(fields, true) },
      classifyProductError,
    );
  }

  async sendBatch(account: AdapterAccount, catalogId: string, changes: ProductChange[]): Promise<string> {
    const requests = changes.map((change) => ({
      // A create is an upsert: sending the batch again (its answer lost) makes nothing twice.
      method: change.method === 'DELETE' ? 'DELETE' : 'UPDATE',
      data: { ...(change.fields ? toFeed(change.fields, change.fields.currency) : {}), id: change.retailerId },
    }));
    const answer = await this.client.call<{ handles?: string[] }>('POST', `${catalogId}/items_batch`, {
      token: account.credentials.accessToken,
      json: { item_type: 'PRODUCT_ITEM', allow_upsert: true, requests },
    });
    const handle = answer.handles?.[0];
    if (!handle) throw new BatchHandleUnknown('the platform accepted the batch without a handle');
    return handle;
  }

  async batchProgress(account: AdapterAccount, catalogId: string, handle: string): Promise<BatchProgress> {
    const answer = await this.client.call<{ data?: Array<{ status?: string; errors?: GraphLine[]; warnings?: GraphLine[] }> }>(
      'GET',
      `${catalogId}/check_batch_request_status`,
      { token: account.credentials.accessToken, query: { handle } },
      (status, body, headers) => {
        const error = classifyMetaError(status, body, headers);
        return error.kind === 'invalid_request' && /handle/i.test(error.message) ? new BatchHandleUnknown(error.message) : error;
      },
    );
    const report = answer.data?.[0];
    if (!report || report.status !== 'finished') return { finished: false };
    const lines = (issues: GraphLine[] = []) =>
      issues.map(({ line, message }) => ({ line, issue: { code: 'platform_rejected', message, field: fieldOfMessage(message) } }));
    return { finished: true, errors: lines(report.errors), warnings: lines(report.warnings) };
  }

  async productSets(account: AdapterAccount, catalogId: string): Promise<PlatformProductSet[]> {
    const sets = await allPages((after) =>
      this.client.call<GraphList<GraphProductSet>>('GET', `${catalogId}/product_sets`, {
        token: account.credentials.accessToken,
        query: { fields: SET_FIELDS, limit: PAGE_SIZE, after },
      }),
    );
    return sets.map(productSetOf);
  }

  async createProductSet(
    account: AdapterAccount,
    catalogId: string,
    input: { name: string; filter: SetFilter | null },
  ): Promise<PlatformProductSet> {
    const created = await this.client.call<GraphProductSet>('POST', `${catalogId}/product_sets`, {
      token: account.credentials.accessToken,
      form: { name: input.name, filter: input.filter ? JSON.stringify(toGraphFilter(input.filter)) : undefined },
    });
    return { ...productSetOf(created), filter: input.filter, readable: true };
  }

  async productSet(account: AdapterAccount, productSetId: string): Promise<PlatformProductSet> {
    const raw = await this.client.call<GraphProductSet>(
      'GET',
      productSetId,
      { token: account.credentials.accessToken, query: { fields: SET_FIELDS } },
      classifyGone,
    );
    return productSetOf(raw);
  }

  async updateProductSet(
    account: AdapterAccount,
    productSetId: string,
    change: { name?: string; filter?: SetFilter | null },
  ): Promise<PlatformProductSet> {
    // An empty filter is every product, as a set created without one.
    const filter = change.filter === undefined ? undefined : change.filter === null ? '' : JSON.stringify(toGraphFilter(change.filter));
    await this.client.call(
      'POST',
      productSetId,
      { token: account.credentials.accessToken, form: { name: change.name, filter } },
      classifyGone,
    );
    return this.productSet(account, productSetId);
  }

  async deleteProductSet(account: AdapterAccount, productSetId: string): Promise<void> {
    await this.client.call('DELETE', productSetId, { token: account.credentials.accessToken }, classifyGone);
  }

  async shops(account: AdapterAccount): Promise<PlatformShop[]> {
    const settings = await this.client.call<GraphList<{ id: string; display_name?: string; shops?: GraphList<GraphShop> }>>(
      'GET',
      `${account.platformAccountId}/commerce_merchant_settings`,
      {
        token: account.credentials.accessToken,
        query: { fields: 'id,display_name,shops{id,name,review_status,product_catalog,shop_url}' },
      },
    );
    return settings.data.flatMap((merchant) =>
      (merchant.shops?.data ?? []).map((shop) => ({
        id: shop.id,
        name: shop.name ?? merchant.display_name ?? shop.id,
        merchantSettingsId: merchant.id,
        status: SHOP_STATUS[shop.review_status ?? ''] ?? 'draft',
        catalogId: shop.product_catalog?.id ?? null,
        url: shop.shop_url ?? null,
      })),
    );
  }
}
