import { ApiError, type FieldError, UnprocessableError } from '../../lib/errors.js';

/** 409: the platform account is connected already (to another profile of the owner; a qrchat account: paired). */
export class AccountAlreadyConnectedError extends ApiError {
  constructor(detail: string) {
    super(409, 'account_already_connected', 'Account already connected', detail);
  }
}

/**
 * 409 `account_connected_elsewhere`: another owner connected this platform identity, and the platform sends its
 * events to one place only (`exclusiveIdentity`): a second owner would take them away from the first.
 */
export class AccountConnectedElsewhereError extends ApiError {
  constructor(detail: string) {
    super(409, 'account_connected_elsewhere', 'Account connected by another owner', detail);
  }
}

/** 409: the account cannot act until it is connected (or paired) again: pending, needs reconnection, disconnected. */
export class AccountNotConnectedError extends ApiError {
  constructor(detail: string) {
    super(409, 'account_not_connected', 'Account not connected', detail);
  }
}

/** 422 `account_platform_unsupported`: `detail` names the account's platform (or kind) and why it cannot do this. */
export class CapabilityUnsupportedError extends UnprocessableError {
  constructor(detail: string) {
    super('account_platform_unsupported', 'Not supported for this account', detail);
  }
}

/**
 * 422 `permission_missing`: the account was connected without a platform permission this needs. Only a person can
 * grant it, by connecting the account again (`action`); `scope` names it where it is known.
 */
export class PermissionMissingError extends ApiError {
  constructor(detail: string, scope?: string) {
    super(422, 'permission_missing', 'A platform permission is missing', detail, {
      members: { action: 'reconnect_account', ...(scope ? { scope } : {}) },
    });
  }
}

/** Where the platform does not say how long to wait: a minute, said to be a guess. */
const GUESSED_WAIT_SECONDS = 60;

/** 429 `platform_rate_limited`: `Retry-After` is the platform's own wait where it gave one. */
export class PlatformRateLimitedError extends ApiError {
  /** How long the platform asked to wait (or a guess, when it did not say). */
  readonly retryAfterSeconds: number;

  constructor(said: string, retryAt: Date | undefined) {
    const seconds = retryAt ? Math.max(1, Math.ceil((retryAt.getTime() - Date.now()) / 1000)) : GUESSED_WAIT_SECONDS;
    const wait = retryAt ? `try again in ${seconds} seconds` : `it did not say for how long; try again in ${seconds} seconds (a guess)`;
    super(
      429,
      'platform_rate_limited',
      'The platform is rate limiting the account',
      `The platform is rate limiting this account (${said}); ${wait}.`,
      { headers: { 'Retry-After': String(seconds) } },
    );
    this.retryAfterSeconds = seconds;
  }
}

/** 502 `platform_error`: the platform failed, or refused in a way the caller cannot fix; `detail` carries its words. */
export class PlatformFailedError extends ApiError {
  constructor(detail: string) {
    super(502, 'platform_error', 'The platform failed', detail);
  }
}

/** 422 `unknown_profile`: profiles named in the request that the owner does not have, each at its member. */
export class UnknownProfileError extends UnprocessableError {
  constructor(missing: Array<{ id: string; path: string }>) {
    const errors: FieldError[] = missing.map(({ id, path }) => ({ path, message: `no profile ${id}`, code: 'unknown_profile' }));
    super('unknown_profile', 'Unknown profile', `The owner has no profile ${missing.map(({ id }) => id).join(', ')}.`, errors);
  }
}

/** 422 `account_not_in_profile`: an account named (at `path`) is of another profile than the object's. */
export class AccountNotInProfileError extends UnprocessableError {
  constructor(accountId: string, path = 'body/accountIds') {
    super('account_not_in_profile', 'Account of another profile', `${accountId} belongs to another profile.`, [
      { path, message: `${accountId} belongs to another profile`, code: 'account_not_in_profile' },
    ]);
  }
}
