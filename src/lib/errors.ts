import type { components } from '../../generated/api.js';

export type ErrorCode = components['schemas']['ErrorCode'];
export type FieldError = components['schemas']['ProblemFieldError'];
/** The Problem's extension members beyond `errors` (what a person must do about an account, an ad platform's own refusal). */
export type ProblemMembers = Pick<components['schemas']['Problem'], 'action' | 'scope' | 'platformCode' | 'platformSubcode'>;

/**
 * An error a client is meant to see. Each subclass has one stable `code` from the contract's ErrorCode list and
 * lives in this file (the pipeline's) or in its area's `errors.ts`; abstract, so that no code is made up where
 * it is thrown. src/http/problem.ts turns it into problem+json, and nothing else writes error bodies.
 */
export abstract class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly title: string,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; members?: ProblemMembers } = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends ApiError {
  constructor(errors: FieldError[]) {
    const count = errors.length;
    super(
      400,
      'validation_failed',
      'The request does not match the contract',
      `${count} member${count === 1 ? '' : 's'} of the request ${count === 1 ? 'is' : 'are'} invalid.`,
      { errors },
    );
  }
}

export class MalformedJsonError extends ApiError {
  constructor(reason: string) {
    super(400, 'malformed_json', 'The body is not valid JSON', reason);
  }
}

export class InvalidCursorError extends ApiError {
  constructor() {
    super(400, 'invalid_cursor', 'Invalid cursor', 'The cursor is not one this service gave out for this list; start again without it.', {
      errors: [{ path: 'query/cursor', message: 'is not a cursor from a previous page of this list', code: 'invalid_cursor' }],
    });
  }
}

export class AuthenticationRequiredError extends ApiError {
  constructor() {
    super(401, 'authentication_required', 'Authentication required', 'Send Authorization: Bearer <token>.', {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  }
}

export class InvalidTokenError extends ApiError {
  constructor(detail = 'The bearer token is not a known session or API key.') {
    super(401, 'invalid_token', 'Invalid token', detail, {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  }
}

export class TokenExpiredError extends ApiError {
  constructor(kind: 'session' | 'API key') {
    super(401, 'token_expired', 'Token expired', `This ${kind} has expired.`, {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  }
}

export class TokenRevokedError extends ApiError {
  constructor(kind: 'session' | 'API key') {
    super(401, 'token_revoked', 'Token revoked', kind === 'session' ? 'This session was logged out.' : 'This API key was revoked.', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  }
}

export class InvalidCredentialsError extends ApiError {
  constructor() {
    super(401, 'invalid_credentials', 'Invalid credentials', 'The email or the password is wrong.');
  }
}

export class SessionRequiredError extends ApiError {
  constructor() {
    super(
      403,
      'session_required',
      'A user session is required',
      'This route accepts only a user session (POST /auth/login), not an API key.',
    );
  }
}

export class ProfileOutOfScopeError extends ApiError {
  constructor(detail = 'This object belongs to a profile outside the profiles this API key is restricted to.') {
    super(403, 'profile_out_of_scope', "Outside the key's profiles", detail);
  }
}

export class NotFoundError extends ApiError {
  constructor(what: string) {
    super(404, 'not_found', 'Not found', `No ${what} with this id.`);
  }
}

export class RouteNotFoundError extends ApiError {
  constructor(method: string, path: string) {
    super(404, 'route_not_found', 'No such route', `${method} ${path} is not a route of this API. See /docs.`);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string, path: string, allowed: string[]) {
    super(405, 'method_not_allowed', 'Method not allowed', `${path} does not accept ${method}; it accepts ${allowed.join(', ')}.`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
}

export class EmailTakenError extends ApiError {
  constructor() {
    super(409, 'email_taken', 'Email taken', 'An owner with this email exists already; log in instead.');
  }
}

export class IdempotencyKeyInUseError extends ApiError {
  constructor() {
    super(
      409,
      'idempotency_key_in_use',
      'Idempotency key in use',
      'A request with this Idempotency-Key is still running; retry when it has finished.',
    );
  }
}

export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(
      422,
      'idempotency_key_reused',
      'Idempotency key reused',
      'This Idempotency-Key was used with another request; use a new key for a new request.',
    );
  }
}

export class PayloadTooLargeError extends ApiError {
  /** `closeConnection`: the rest of the body is not read, so the connection cannot serve another request. */
  constructor(limit: string, { closeConnection = false } = {}) {
    super(
      413,
      'payload_too_large',
      'Payload too large',
      `The body exceeds the limit of this route (${limit}).`,
      closeConnection ? { headers: { Connection: 'close' } } : {},
    );
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(accepted: string[]) {
    super(415, 'unsupported_media_type', 'Unsupported media type', `Send the body as ${accepted.join(' or ')}.`);
  }
}

/** The answers to a request Node's HTTP parser could not read, before any route is known (src/http/client-error.ts). */
export class RequestTimeoutError extends ApiError {
  constructor() {
    super(408, 'request_timeout', 'Request timeout', 'The request did not arrive in time; send it again.');
  }
}

export class HeadersTooLargeError extends ApiError {
  constructor() {
    super(
      431,
      'headers_too_large',
      'Request header fields too large',
      'The request line and headers exceed what the server reads (16 KiB); shorten the URL or the headers.',
    );
  }
}

export class MalformedRequestError extends ApiError {
  constructor() {
    super(400, 'malformed_request', 'Malformed request', 'The request is not a well-formed HTTP/1.1 message.');
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many requests', `Try again in ${retryAfterSeconds} seconds.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

export class NotImplementedError extends ApiError {
  /** `what`: an operation id, or the part of one that is not built (`Connecting calendar accounts`). */
  constructor(what: string) {
    super(501, 'not_implemented', 'Not implemented', `${what} is part of the contract but not built yet in this version.`);
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(500, 'internal_error', 'Internal error', 'Something unexpected failed; quote the requestId when you report it.');
  }
}

/** A rule of ours or of a platform refuses a well-formed request: the base of each area's 422 errors. */
export abstract class UnprocessableError extends ApiError {
  constructor(code: ErrorCode, title: string, detail: string, errors?: FieldError[]) {
    super(422, code, title, detail, errors ? { errors } : {});
  }
}
