import { ApiError, UnprocessableError } from '../../lib/errors.js';

/** 422 `url_not_allowed`: the hook's host resolves to an address deliveries may not go to; `reason` says which. */
export class UrlNotAllowedError extends UnprocessableError {
  /** `privateAddress`: refused for where it points, which the operator can allow. */
  constructor(reason: string, privateAddress = false) {
    const remedy = privateAddress ? ' The operator of this instance can allow a private range with WEBHOOK_ALLOWED_CIDRS.' : '';
    super('url_not_allowed', 'URL not allowed', `The webhook url is refused: ${reason}.${remedy}`, [
      { path: 'body/url', message: reason, code: 'url_not_allowed' },
    ]);
  }
}

/** 422 `hook_limit_reached`. */
export class HookLimitReachedError extends UnprocessableError {
  constructor(max: number) {
    super('hook_limit_reached', 'Webhook limit reached', `An owner may have at most ${max} webhooks; delete one first.`);
  }
}

/** 429 `hook_test_rate_limited`: one test per `interval` seconds per hook. */
export class HookTestRateLimitedError extends ApiError {
  constructor(interval: number, retryAfterSeconds: number) {
    super(
      429,
      'hook_test_rate_limited',
      'Too many requests',
      `One test per ${interval} seconds per webhook; try again in ${retryAfterSeconds} seconds.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  }
}
