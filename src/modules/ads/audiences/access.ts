import { AudienceRefused } from '../../../platforms/capabilities/ad-audiences.js';
import type { PlatformError } from '../../../platforms/errors.js';
import { AudienceTermsNotAcceptedError, AudienceTooSmallError, LookalikeSourceNotReadyError } from '../errors.js';
import { throwAdRefusal } from '../refusals.js';

/**
 * The refusals of an audience call as `withAdAccount`'s `handle`: terms, size and readiness each their own 422; the
 * rest as every ad refusal, the member named under `where`.
 */
export function audienceRefusals(where: 'body' | 'query' = 'body'): (error: PlatformError) => void {
  return (error) => {
    if (error instanceof AudienceRefused) {
      const platform = { code: error.platformCode, subcode: error.platformSubcode };
      if (error.reason === 'terms_not_accepted') throw new AudienceTermsNotAcceptedError(error.message, platform);
      if (error.reason === 'too_small') throw new AudienceTooSmallError(error.message, platform);
      throw new LookalikeSourceNotReadyError(error.message, platform);
    }
    throwAdRefusal(error, where);
  };
}
