import { NotFoundError, UnprocessableError } from '../../../lib/errors.js';

/** 422 `ad_platform_rejected`: the ad platform refused a copy (its words in `detail`, our member in `errors`). */
export class CopyRefusedError extends UnprocessableError {
  constructor(detail: string, field: string | null) {
    super(
      'ad_platform_rejected',
      'The ad platform refused the copy',
      detail,
      field ? [{ path: `body/${field.replaceAll('.', '/')}`, message: detail, code: 'ad_platform_rejected' }] : undefined,
    );
  }
}

/** 404 `not_found`: no campaign, ad set or ad with this id in the ad account. */
export class AdObjectMissingError extends NotFoundError {
  constructor(level: 'campaign' | 'adset' | 'ad') {
    super(`${level === 'adset' ? 'ad set' : level} in the ad account`);
  }
}
