import { idOf } from '../../../lib/ids.js';
import type { AdsAccount } from '../../../platforms/capabilities/ad-campaigns.js';
import { type AdPixels, CustomConversionNotFound, PixelNotFound } from '../../../platforms/capabilities/ad-pixels.js';
import type { Services } from '../../../services.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { withConnectedAccount } from '../../accounts/platform-call.js';
import type { Principal } from '../../auth/principal.js';
import { throwAdRefusal } from '../refusals.js';
import { CustomConversionNotFoundError, PixelNotFoundError } from './errors.js';

/**
 * Acts on the pixels, server events and custom conversions of one of the caller's connected ad accounts: its
 * platform's `adPixels` with the account's token and currency. A pixel or custom conversion the ad account lacks
 * is 404; the platform's refusals are our 422s naming the member; the rest is the accounts' mapping.
 */
export function withAdPixels<T>(
  services: Services,
  principal: Principal,
  adAccountId: string,
  call: (pixels: AdPixels, account: AdsAccount, row: AdAccountRow) => Promise<T>,
  where: 'body' | 'query' = 'body',
): Promise<T> {
  return withConnectedAccount(
    services,
    principal,
    { adAccountId: idOf('adacc', adAccountId) },
    'adPixels',
    (adapter, account, row) => call(adapter.adPixels, { ...account, currency: row.currency }, row),
    {
      handle: (error) => {
        if (error instanceof PixelNotFound) throw new PixelNotFoundError();
        if (error instanceof CustomConversionNotFound) throw new CustomConversionNotFoundError();
        throwAdRefusal(error, where);
      },
    },
  );
}
