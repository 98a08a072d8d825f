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
      members: platformMembers(platform),
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

/** 422 `spark_authorization_missing`: the TikTok post is not authorised for the advertiser's ads; `detail` says how it can be. */
export class SparkAuthorizationMissingError extends UnprocessableError {
  constructor(detail: string) {
    super('spark_authorization_missing', 'The TikTok post is not authorised for ads', detail, [
      { path: 'body/sparkAuthCode', message: detail, code: 'spark_authorization_missing' },
    ]);
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

/** The platform's own code of a refusal, as the 422's `platformCode`/`platformSubcode` members. */
function platformMembers(platform: { code: number | null; subcode: number | null }) {
  return {
    ...(platform.code === null ? {} : { platformCode: platform.code }),
    ...(platform.subcode === null ? {} : { platformSubcode: platform.subcode }),
  };
}

/** 422 `audience_terms_not_accepted`: the ad account has not accepted the platform's custom audience terms. */
export class AudienceTermsNotAcceptedError extends ApiError {
  constructor(detail: string, platform: { code: number | null; subcode: number | null }) {
    super(422, 'audience_terms_not_accepted', 'The custom audience terms are not accepted', detail, { members: platformMembers(platform) });
  }
}

/** 422 `audience_too_small`: a lookalike's source (or another use) needs more matched people. */
export class AudienceTooSmallError extends ApiError {
  constructor(detail: string, platform: { code: number | null; subcode: number | null }) {
    super(422, 'audience_too_small', 'The audience is too small', detail, {
      errors: [{ path: 'body/lookalikeSpec/originAudienceId', message: detail, code: 'audience_too_small' }],
      members: platformMembers(platform),
    });
  }
}

/** 422 `lookalike_source_not_ready`: the source audience of a lookalike is still populating. */
export class LookalikeSourceNotReadyError extends ApiError {
  constructor(detail: string, platform: { code: number | null; subcode: number | null }) {
    super(422, 'lookalike_source_not_ready', "The lookalike's source audience is not ready", detail, {
      errors: [{ path: 'body/lookalikeSpec/originAudienceId', message: detail, code: 'lookalike_source_not_ready' }],
      members: platformMembers(platform),
    });
  }
}

/** 404 `not_found`: no custom audience with this id in the ad account. */
export class AudienceNotFoundError extends NotFoundError {
  constructor() {
    super('audience in the ad account');
  }
}
