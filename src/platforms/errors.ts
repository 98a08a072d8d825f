/** How a platform failure is classified; the caller (a job, a handler) decides what to do about it. */
export type PlatformFailure = 'auth_expired' | 'permission_revoked' | 'rate_limited' | 'invalid_request' | 'transient';

/** Adapters never sleep or retry: they raise this, with the platform's own code and message kept. */
export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformFailure,
    message: string,
    /** `unsent`: the request never reached the platform (no connection), so sending it again cannot repeat it. */
    readonly details: { platformCode?: string | number; retryAt?: Date; status?: number; unsent?: boolean } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }

  /** The account can no longer act until the user reconnects it. */
  get needsReconnection(): boolean {
    return this.kind === 'auth_expired' || this.kind === 'permission_revoked';
  }
}
