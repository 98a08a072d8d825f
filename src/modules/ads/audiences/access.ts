import { idOf } from '../../../lib/ids.js';
import { type AdAudiences, AudienceRefused } from '../../../platforms/capabilities/ad-audiences.js';
import type { PlatformError } from '../../../platforms/errors.js';
import type { AdapterAccount } from '../../../platforms/types.js';
import type { Services } from '../../../services.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { withConnectedAccount } from '../../accounts/platform-call.js';
import type { Principal } from '../../auth/principal.js';
import { AudienceTermsNotAcceptedError, AudienceTooSmallError, LookalikeSourceNotReadyError } from '../errors.js';
import { throwAdRefusal } from '../refusals.js';

/** The platform's refusals of an audience the caller can act on, each its own 422; the rest as every ad refusal. */
function throwAudienceRefusal(error: PlatformError, where: 'body' | 'query'): void {
  if (error instanceof AudienceRefused) {
    const platform = { code: error.platformCode, subcode: error.platformSubcode };
    if (error.reason === 'terms_not_accepted') throw new AudienceTermsNotAcceptedError(error.message, platform);
    if (error.reason === 'too_small') throw new AudienceTooSmallError(error.message, platform);
    throw new LookalikeSourceNotReadyError(error.message, platform);
  }
  throwAdRefusal(error, where);
}

/**
 * Acts on the custom audiences of one of the caller's connected ad accounts: its platform's `adAudiences` with the
 * account's token. The platform's refusals become our 422s (terms, size, readiness, or naming the member); the rest
 * is the accounts' mapping (404, 403, 409, 429, 502).
 */
export function withAdAudiences<T>(
  services: Services,
  principal: Principal,
  adAccountId: string,
  call: (audiences: AdAudiences, account: AdapterAccount, row: AdAccountRow) => Promise<T>,
  where: 'body' | 'query' = 'body',
): Promise<T> {
  return withConnectedAccount(
    services,
    principal,
    { adAccountId: idOf('adacc', adAccountId) },
    'adAudiences',
    (adapter, account, row) => call(adapter.adAudiences, account, row),
    { handle: (error) => throwAudienceRefusal(error, where) },
  );
}
