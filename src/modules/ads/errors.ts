import { ApiError, type FieldError, NotFoundError, UnprocessableError } from '../../lib/errors.js';

/**
 * 422 `ad_platform_rejected`: the ad platform refused the request, or would (a rule of its own the service checks
 * first). `errors` names our member where it is known; `platformCode`/`platformSubcode` are the platform's own,
 * absent when the service refused by its rule before asking.
 */
export class AdPlatformRejectedError extends ApiError {
  constructor(detail: string, field: string | null, platform: { code: number | null; subcode: number | null }) {
    const errors: FieldError[] | undefined = field ? [{ path: field, message: detail, code: 'ad_platform_rejected' }] : undefined;
    super(422, 'ad_platform_rejected', 'The ad platform refused the request', detail, {
      ...(errors ? { errors } : {}),
      members: {
        ...(platform.code === null ? {} : { platformCode: platform.code }),
        ...(platform.subcode === null ? {} : { platformSubcode: platform.subcode }),
      },
    });
  }
}

/** 422 `ad_account_disabled`: the ad account can run no ads (disabled, closed, unsettled billing). */
export class AdAccountDisabledError extends UnprocessableError {
  constructor(detail: string) {
    super('ad_account_disabled', 'The ad account cannot run ads', `${detail} Fix it in the platform's ads manager.`);
  }
}

/** 404 `not_found`: no campaign, ad set, ad or creative with this id in the ad account. */
export class AdObjectNotFoundError extends NotFoundError {
  constructor(level: 'campaign' | 'adset' | 'ad' | 'creative') {
    super(`${level === 'adset' ? 'ad set' : level} in the ad account`);
  }
}

/** 422 `post_not_boostable`: the post is not published, or the platform will not promote it (its reason). */
export class PostNotBoostableError extends UnprocessableError {
  constructor(detail: string) {
    super('post_not_boostable', 'The post cannot be boosted', detail);
  }
}

/** 409 `boost_not_running`: the boost is being made, rolled back, failed or stopped. */
export class BoostNotRunningError extends ApiError {
  constructor(status: string) {
    super(
      409,
      'boost_not_running',
      'The boost is not running',
      `The boost is ${status.replace('_', ' ')}; only an active or paused boost can be paused, resumed or stopped.`,
    );
  }
}
