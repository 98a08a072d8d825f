import type { components } from '../../../../generated/api.js';
import { type Page, platformPage } from '../../../lib/pagination.js';
import type { PlatformPixel } from '../../../platforms/capabilities/ad-pixels.js';
import type { Services } from '../../../services.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';
import { writeOnce } from '../../platform-writes/ledger.js';
import { withAdAccount } from '../access.js';
import { pixelRefusals } from './access.js';

type AdPixel = components['schemas']['AdPixel'];

function presentPixel(row: AdAccountRow, pixel: PlatformPixel): AdPixel {
  return { ...pixel, adAccountId: row.id, platform: row.platform as AdPixel['platform'] };
}

/** `GET /ads/pixels`: the ad account's pixels, read live from its platform (with their base code when asked). */
export function listPixels(
  services: Services,
  principal: Principal,
  query: { adAccountId: string; includeCode?: boolean; limit?: number; cursor?: string },
): Promise<Page<AdPixel>> {
  return withAdAccount(
    'adPixels',
    services,
    principal,
    query.adAccountId,
    { handle: pixelRefusals('query') },
    async (pixels, account, row) => {
      const page = await platformPage(query, (range) => pixels.pixels(account, query.includeCode ?? false, range));
      return { ...page, data: page.data.map((pixel) => presentPixel(row, pixel)) };
    },
  );
}

/** `POST /ads/pixels`: the pixel made once under `writeKey` (a lost answer is looked for by its name), with its code. */
export function createPixel(
  services: Services,
  principal: Principal,
  body: components['schemas']['AdPixelCreate'],
  writeKey: string,
): Promise<AdPixel> {
  return withAdAccount('adPixels', services, principal, body.adAccountId, { handle: pixelRefusals() }, async (pixels, account, row) => {
    const { result } = await writeOnce(services.db, {
      ownerId: row.ownerId,
      accountId: row.id,
      key: writeKey,
      kind: 'ad.pixel',
      request: { name: body.name },
      send: () => pixels.createPixel(account, body.name),
      reconcile: (since) => pixels.findPixel(account, body.name, since),
      store: async () => {},
    });
    return presentPixel(row, result);
  });
}
