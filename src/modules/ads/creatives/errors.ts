import { UnprocessableError } from '../../../lib/errors.js';

/** 422: the ad platform refused the creative (a post it will not promote, a page the ad account may not use, media it refused). */
export class AdPlatformRejectedError extends UnprocessableError {
  constructor(detail: string) {
    super('ad_platform_rejected', 'The ad platform refused the request', detail);
  }
}
