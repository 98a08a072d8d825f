import { type PlatformError } from '../../platforms/errors.js';
import { type FailureCode, PublishRefused } from '../../platforms/capabilities/publishing.js';
import type { TargetFailure } from './rows.js';

/** What the user can do about each reason, and whether a retry of the same post can then succeed. */
const ACTIONS: Record<FailureCode, { action: TargetFailure['action']; retryable: boolean }> = {
  account_needs_reconnection: { action: 'reconnect_account', retryable: true },
  permission_denied: { action: 'edit_post', retryable: true },
  rate_limited: { action: 'retry_later', retryable: true },
  media_invalid: { action: 'edit_post', retryable: false },
  media_processing_failed: { action: 'retry_later', retryable: true },
  text_too_long: { action: 'edit_post', retryable: false },
  duplicate_content: { action: 'edit_post', retryable: false },
  policy_violation: { action: 'edit_post', retryable: false },
  link_unreachable: { action: 'edit_post', retryable: true },
  platform_unavailable: { action: 'retry_later', retryable: true },
  // The operator must set PUBLIC_URL; the same post then publishes.
  public_url_unreachable: { action: 'contact_support', retryable: true },
  unknown: { action: 'contact_support', retryable: false },
};

export function failure(
  code: FailureCode,
  message: string,
  platformCode: string | null = null,
  overrides: Partial<TargetFailure> = {},
): TargetFailure {
  return { code, message: message.slice(0, 2000), ...ACTIONS[code], platformCode, failedAt: new Date().toISOString(), ...overrides };
}

function platformCodeOf(error: PlatformError): string | null {
  return error.details.platformCode === undefined ? null : String(error.details.platformCode).slice(0, 120);
}

/** A platform's refusal, in a form the user can act on; the platform's own words are kept in the message. */
export function failureOf(error: PlatformError, platform: string): TargetFailure {
  const platformCode = platformCodeOf(error);
  const said = `${platform} said: ${error.message}`;
  if (error instanceof PublishRefused) {
    return failure(error.failure, said, platformCode, error.failure === 'unknown' ? { action: 'edit_post' } : {});
  }
  switch (error.kind) {
    case 'auth_expired':
    case 'permission_revoked':
      return failure(
        'account_needs_reconnection',
        `The account's access was refused (${said}). Reconnect the account, then retry.`,
        platformCode,
      );
    case 'rate_limited':
      return failure('rate_limited', `The platform's rate limit held through every retry (${said}). Retry later.`, platformCode);
    case 'transient':
      return failure('platform_unavailable', `The platform failed on every retry (${said}). Retry later.`, platformCode);
    default:
      return failure('unknown', `The platform refused the post (${said}). Change the post and publish it again.`, platformCode, {
        action: 'edit_post',
      });
  }
}

/**
 * A passing failure the worker tries again on its own, shown while the target waits (`lastError`): nothing for the
 * user to do. `unknown`: the answer was lost, and the platform is asked before anything is sent again.
 */
export function interimFailure(error: PlatformError, platform: string, unknown: boolean): TargetFailure {
  const said = `${platform} said: ${error.message}`;
  const [code, message]: [FailureCode, string] = unknown
    ? [
        'platform_unavailable',
        `The last attempt's answer was lost (${said}); the platform is asked whether it published before anything is sent again.`,
      ]
    : error.kind === 'rate_limited'
      ? ['rate_limited', `The platform is rate limiting (${said}); tried again automatically.`]
      : ['platform_unavailable', `The platform failed (${said}); tried again automatically.`];
  return failure(code, message, platformCodeOf(error), { action: 'none' });
}

/** The service cannot tell whether the platform published: said plainly, and never retried on its own. */
export function unknownOutcome(platform: string, detail: string): TargetFailure {
  return failure(
    'unknown',
    `The outcome of the last attempt is unknown (${detail}), and ${platform} offers no way to check it. Look at the account: ` +
      'if the post is missing, retry this target (a retry sends it again).',
    null,
    { action: 'none', retryable: true },
  );
}

/** Whether trying again may succeed without anyone changing anything (a passing failure). */
export function isPassing(error: PlatformError): boolean {
  return !(error instanceof PublishRefused) && (error.kind === 'rate_limited' || error.kind === 'transient');
}
