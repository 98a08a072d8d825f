import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { commerceSettings } from './settings.js';
import { CommerceReviewWork } from './review.js';
import { CommerceBatchWork } from './worker.js';

/**
 * Product catalogs of the businesses behind social_network page accounts: catalogs, products (our records,
 * imported from and mirrored to the platform), batches of product changes sent and followed by a leased worker,
 * reviews polled until the platform decides, product sets in our filter syntax, and shops read live.
 */
export const commerce = defineArea({
  name: 'commerce',
  contractArea: 'Commerce',
  handlers,
  tables: [
    'commerce_catalogs',
    'commerce_products',
    'commerce_batches',
    'commerce_batch_parts',
    'commerce_batch_items',
    'commerce_product_sets',
  ],
  settings: commerceSettings,
  workers: {
    commerce: (services) => new CommerceBatchWork(services),
    'commerce-review': (services) => new CommerceReviewWork(services),
  },
  outstanding: {
    commerceBatchParts: `SELECT count(*) FROM commerce_batch_parts WHERE status <> 'done'
      AND (next_attempt_at <= now() OR locked_until > now())`,
  },
});
