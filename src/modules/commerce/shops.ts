import { idOf } from '../../lib/ids.js';
import { decodeKeyset, keysetPage, type Page } from '../../lib/pagination.js';
import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';
import { ownerAccountsOn } from '../accounts/api.js';
import { findAccount } from '../accounts/read.js';
import { listedProfiles, type Principal } from '../auth/principal.js';
import { commercePlatforms, findCatalog, withCommerce } from './access.js';
import type { CatalogRow } from './rows.js';

type CommerceShop = components['schemas']['CommerceShop'];

/**
 * The shops of the owner's page accounts, read live from the platform's commerce accounts (the service keeps
 * none), each linked to our record of its catalog where the account reaches it. One page: a page account has a
 * handful of shops at most.
 */
export async function listShops(
  services: Services,
  principal: Principal,
  query: { profileId?: string; accountId?: string; catalogId?: string; limit?: number; cursor?: string },
): Promise<Page<CommerceShop>> {
  const { db } = services;
  const limit = query.limit ?? 20;
  const profiles = await listedProfiles(db, principal, query.profileId);
  const catalog = query.catalogId ? await findCatalog(services, principal, query.catalogId) : null;
  const accounts = query.accountId
    ? [await findAccount(db, principal, idOf('acc', query.accountId))]
    : await ownerAccountsOn(db, principal.ownerId, commercePlatforms(services), profiles);
  const shops = await Promise.all(
    accounts.map(async (account) => {
      const found = await withCommerce(services, principal, account, (commerce, platformAccount) => commerce.shops(platformAccount)).catch(
        (error: unknown) => {
          if (query.accountId) throw error;
          return [];
        },
      );
      const catalogs = (await db('commerceCatalogs').where({ accountId: account.id })) as CatalogRow[];
      return found.map((shop) => {
        const ours = catalogs.find((c) => c.platformCatalogId === shop.catalogId);
        return {
          id: shop.id,
          profileId: account.profileId,
          accountId: account.id,
          platform: account.platform as CommerceShop['platform'],
          name: shop.name,
          merchantSettingsId: shop.merchantSettingsId,
          status: shop.status,
          catalogId: ours?.id ?? null,
          platformCatalogId: shop.catalogId,
          url: shop.url,
        };
      });
    }),
  );
  // Read whole each time (an account has a handful of shops): a page is the next ones in (account, shop id) order.
  const after = decodeKeyset(query.cursor, ['id', 'text']);
  const key = (shop: CommerceShop) => `${shop.accountId}\u0000${shop.id.padStart(32, '0')}`;
  const all = shops
    .flat()
    .filter((shop) => !catalog || shop.catalogId === catalog.id)
    .sort((a, b) => (key(a) < key(b) ? 1 : -1))
    .filter((shop) => !after || key(shop) < `${after[0]}\u0000${String(after[1]).padStart(32, '0')}`);
  const { rows, nextCursor } = keysetPage(all, limit, (shop) => [shop.accountId, shop.id]);
  return { data: rows, nextCursor };
}
