import type { Services } from '../../services.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Principal } from '../auth/principal.js';
import { findCatalog } from './access.js';
import type { ProductSetRow } from './rows.js';

/**
 * The platform's id of one of the caller's product sets (an ad set promotes it by that id): 404 for another owner's,
 * 403 outside the key's profiles, as for its catalog.
 */
export async function platformProductSetId(services: Services, principal: Principal, productSetId: string): Promise<string> {
  const set = (await services.db('commerceProductSets').where({ id: productSetId }).first()) as ProductSetRow | undefined;
  if (!set) throw new NotFoundError('product set');
  await findCatalog(services, principal, set.catalogId);
  return set.platformProductSetId;
}
