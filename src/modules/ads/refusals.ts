import { AdAccountDisabled, AdObjectNotFound, AdRefused } from '../../platforms/capabilities/ad-campaigns.js';
import type { PlatformError } from '../../platforms/errors.js';
import { AdAccountDisabledError, AdObjectNotFoundError, AdPlatformRejectedError } from './errors.js';

const NOT_FOUND_LEVEL: Record<string, 'campaign' | 'adset' | 'creative'> = {
  campaignId: 'campaign',
  adsetId: 'adset',
  creativeId: 'creative',
};

/**
 * An ad platform's refusal as our problem, never a bare 502: a refusal is a 422 naming our member (under `where`,
 * `body` or `query`) with the platform's code and subcode; a disabled ad account is 422 `ad_account_disabled`; an
 * object the request names that the account lacks is 404. Anything else is left to the accounts' mapping
 * (`withConnectedAccount`'s `handle`).
 */
export function throwAdRefusal(error: PlatformError, where: 'body' | 'query' = 'body'): void {
  if (error instanceof AdRefused)
    throw new AdPlatformRejectedError(error.message, error.field === null ? null : `${where}/${error.field.replaceAll('.', '/')}`, {
      code: error.platformCode,
      subcode: error.platformSubcode,
    });
  if (error instanceof AdAccountDisabled) throw new AdAccountDisabledError(error.message);
  if (error instanceof AdObjectNotFound) throw new AdObjectNotFoundError(NOT_FOUND_LEVEL[error.field] ?? 'ad');
}

/** Every ad refusal's mapping as `withAdAccount`'s `handle`, the members named under `where`. */
export function adRefusals(where: 'body' | 'query' = 'body'): (error: PlatformError) => void {
  return (error) => throwAdRefusal(error, where);
}
