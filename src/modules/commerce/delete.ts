import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { findCatalog } from './access.js';
import { createBatch } from './batches.js';
import type { CommerceProductBatch } from './present.js';

/**
 * Deletes products named by retailer id or by our id, as a batch of deletions: every one must be a live product of
 * the catalog (a 404, and nothing deleted, otherwise). Answers the batch as it stands after the wait: null when
 * every deletion was confirmed (the caller answers 204).
 */
export async function deleteProducts(
  services: Services,
  principal: Principal,
  query: { catalogId: string; retailerIds?: string[]; productIds?: string[] },
): Promise<CommerceProductBatch | null> {
  const catalog = await findCatalog(services, principal, query.catalogId);
  if (Boolean(query.retailerIds) === Boolean(query.productIds))
    throw new ValidationFailedError([{ path: 'query', code: 'one_of', message: 'Give retailerIds or productIds, one of them.' }]);
  const rows = services.db('commerceProducts').where({ catalogId: catalog.id }).whereNull('deletedAt');
  if (query.retailerIds) rows.whereIn('retailerId', query.retailerIds);
  else rows.whereIn('id', query.productIds!);
  const found = (await rows.select('retailerId')) as Array<{ retailerId: string }>;
  if (found.length !== (query.retailerIds ?? query.productIds)!.length) throw new NotFoundError('product in this catalog');
  const batch = await createBatch(services, principal, {
    catalogId: catalog.id,
    requests: found.map(({ retailerId }) => ({ method: 'DELETE', retailerId })),
  });
  return batch.status === 'finished' && batch.failedCount === 0 ? null : batch;
}
