import { ApiError } from '../../lib/errors.js';

/** 403: a platform's verification handshake (GET) does not match this service's verify token. */
export class WebhookVerificationFailedError extends ApiError {
  constructor() {
    super(403, 'webhook_verification_failed', 'Verification failed', 'The handshake does not match this service.');
  }
}

/** 401: an incoming platform webhook is not signed by the platform (or not with the account's secret). */
export class InvalidSignatureError extends ApiError {
  constructor() {
    super(401, 'invalid_signature', 'Invalid signature', 'The request is not signed by the platform.');
  }
}
