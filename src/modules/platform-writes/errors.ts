import { ApiError, UnprocessableError } from '../../lib/errors.js';

/** 409: a write with this key is under way (its lease has not run out); ask again once it has finished. */
export class WriteInProgressError extends ApiError {
  constructor() {
    super(409, 'idempotency_key_in_use', 'Write in progress', 'A write with this key is under way; try again when it has finished.');
  }
}

/** 422: the key was used for another write (another request to the platform); a new write needs a new key. */
export class WriteKeyReusedError extends UnprocessableError {
  constructor() {
    super('idempotency_key_reused', 'Key used for another write', 'This key was used for another write; use a new key for a new write.');
  }
}

/**
 * 502: the platform's answer to the write was lost, and the platform offers no way to find out whether it did it.
 * Nothing is sent again under this key: a person looks on the platform, and does it again with a new key if needed.
 */
export class WriteOutcomeUnknownError extends ApiError {
  constructor(why: string) {
    super(
      502,
      'platform_error',
      'The outcome is unknown',
      `The platform may or may not have done this (${why}), and it cannot be asked. Look on the platform; to do it again, use a new key.`,
    );
  }
}
