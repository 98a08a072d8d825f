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

/**
 * 400: a correctly signed webhook whose body is not a notification the platform sends (its event has no id, a
 * string holds a NUL character): nothing is stored, as it could never be processed.
 */
export class WebhookPayloadInvalidError extends ApiError {
  constructor(reason: string) {
    super(400, 'webhook_payload_invalid', 'Invalid webhook payload', `The notification is signed but malformed: ${reason}.`);
  }
}
