import { ApiError, UnprocessableError } from '../../lib/errors.js';
import { PlatformError } from '../../platforms/errors.js';
import { PlatformFailedError } from '../accounts/errors.js';
import { platformProblem } from '../accounts/platform-call.js';

/** 400 `oauth_state_invalid`: the callback's state was used already, or never made here. */
export class OAuthStateInvalidError extends ApiError {
  constructor() {
    super(
      400,
      'oauth_state_invalid',
      'Invalid OAuth state',
      'This connection link was used already or is unknown. Start the connection again.',
    );
  }
}

/** 422 `platform_not_configured`: this instance lacks the app credentials connecting needs; `detail` says which. */
export class PlatformNotConfiguredError extends UnprocessableError {
  constructor(detail: string) {
    super('platform_not_configured', 'Platform not configured', detail);
  }
}

/** 422 `public_url_unreachable`: a real platform could not reach this instance at its PUBLIC_URL; `detail` says why. */
export class PublicUrlUnreachableError extends UnprocessableError {
  constructor(detail: string) {
    super('public_url_unreachable', 'PUBLIC_URL not reachable', detail);
  }
}

/** 422 `platform_credentials_invalid`: the platform refused what the caller gave to connect with. */
export class PlatformCredentialsInvalidError extends UnprocessableError {
  constructor(detail: string) {
    super('platform_credentials_invalid', 'Credentials refused', detail);
  }
}

/** 422 `pending_connection_expired`: the grant waited too long for the user's choice. */
export class PendingConnectionExpiredError extends UnprocessableError {
  constructor(expiredAt: Date) {
    super(
      'pending_connection_expired',
      'Pending connection expired',
      `The pending connection expired at ${expiredAt.toISOString()}. Start the connection again.`,
    );
  }
}

/** 422 `selection_not_available`: a chosen page or ad account is not one the pending connection can connect. */
export class SelectionNotAvailableError extends UnprocessableError {
  constructor(detail: string) {
    super('selection_not_available', 'Selection not available', detail);
  }
}

/**
 * The problem a platform's failure is while connecting: the credentials given refused (`what`: "bot token") is the
 * caller's to fix (422); anything else is the platform's (429 when it is rate limiting, else 502).
 */
export function connectionProblem(error: unknown, what: string): never {
  if (!(error instanceof PlatformError)) throw error;
  if (error.kind === 'auth_expired' || error.kind === 'permission_revoked' || error.kind === 'invalid_request') {
    throw new PlatformCredentialsInvalidError(`The platform refused the ${what}: ${error.message}`);
  }
  throw platformProblem(error);
}

/** The platform refused a grant that no account holds yet (a pending connection): only connecting again can help. */
export function grantProblem(error: unknown): never {
  if (!(error instanceof PlatformError)) throw error;
  if (error.needsReconnection)
    throw new PlatformFailedError(`The platform failed: ${error.message}. The grant is no longer valid; start the connection again.`);
  throw platformProblem(error);
}
