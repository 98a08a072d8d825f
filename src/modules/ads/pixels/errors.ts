import { type FieldError, NotFoundError, UnprocessableError } from '../../../lib/errors.js';

/** 404 `not_found`: the ad account may use no pixel with this id. */
export class PixelNotFoundError extends NotFoundError {
  constructor() {
    super('pixel the ad account may use');
  }
}

/** 404 `not_found`: the ad account has no custom conversion with this id. */
export class CustomConversionNotFoundError extends NotFoundError {
  constructor() {
    super('custom conversion in the ad account');
  }
}

/**
 * 422 `ad_platform_rejected`, refused before anything was sent because the platform would refuse it: each member at
 * fault named in `errors` (an event by its index, a rule's condition), none carrying a personal value.
 */
export class AdRequestRefusedError extends UnprocessableError {
  constructor(detail: string, errors: FieldError[]) {
    super('ad_platform_rejected', 'The ad platform refused the request', detail, errors);
  }
}
