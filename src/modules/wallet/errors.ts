import { ApiError, type FieldError, UnprocessableError, ValidationFailedError } from '../../lib/errors.js';

/** Why an uploaded certificate cannot sign passes: the check that failed, as `errors[0].code`. */
export type CertificateCheck =
  | 'unreadable'
  | 'wrong_passphrase'
  | 'unsupported_key'
  | 'key_mismatch'
  | 'not_yet_valid'
  | 'expired'
  | 'untrusted_issuer'
  | 'pass_type_mismatch'
  | 'team_mismatch'
  | 'no_pass_type';

/** 422 `wallet_certificate_invalid`: `check` names the failed check, `detail` says it in words. */
export class WalletCertificateInvalidError extends UnprocessableError {
  constructor(
    readonly check: CertificateCheck,
    detail: string,
  ) {
    super('wallet_certificate_invalid', 'The certificate cannot be used', detail, [{ path: 'body', message: detail, code: check }]);
  }
}

/** 422 `wallet_vendor_not_connected`. */
export class WalletVendorNotConnectedError extends UnprocessableError {
  constructor(detail: string) {
    super('wallet_vendor_not_connected', 'The program cannot sign passes', detail);
  }
}

/** 409 `wallet_program_has_passes`. */
export class WalletProgramHasPassesError extends ApiError {
  constructor(count: number, passTypeIdentifier: string) {
    super(
      409,
      'wallet_program_has_passes',
      'The program has passes',
      `${count} passes are signed as ${passTypeIdentifier}; create a new program for another pass type.`,
    );
  }
}

/** 409 `wallet_serial_number_taken`. */
export class WalletSerialNumberTakenError extends ApiError {
  constructor(serialNumber: string) {
    super(409, 'wallet_serial_number_taken', 'Serial number taken', `The pass type has a pass with serial number ${serialNumber}.`);
  }
}

/** 422 `wallet_pass_expired`. */
export class WalletPassExpiredError extends UnprocessableError {
  constructor(expiresAt: Date) {
    super('wallet_pass_expired', 'The pass expired', `The pass expired at ${expiresAt.toISOString()} and takes no more transactions.`);
  }
}

/** 422 `insufficient_balance`. */
export class InsufficientBalanceError extends UnprocessableError {
  constructor(balance: number, taken: number) {
    super('insufficient_balance', 'Insufficient balance', `The pass has ${balance} points; the transaction takes ${taken}.`);
  }
}

/** 422 `media_not_found`: a design image that is not one of the owner's media. */
export class WalletImageNotFoundError extends UnprocessableError {
  constructor(mediaId: string, path: string) {
    super('media_not_found', 'Media not found', `${mediaId} does not exist.`, [
      { path, message: 'does not exist', code: 'media_not_found' },
    ]);
  }
}

/** 422 `media_type_not_allowed`: a design image of a type the vendor does not show; only PNG images are taken. */
export class WalletImageTypeError extends UnprocessableError {
  constructor(mediaId: string, path: string, mimeType: string) {
    const reason = `is ${mimeType}; a pass image must be a PNG image (image/png)`;
    super('media_type_not_allowed', 'Media type not allowed', `${mediaId} ${reason}: upload the image as a PNG and give its id.`, [
      { path, message: reason, code: 'media_type_not_allowed' },
    ]);
  }
}

/** 401 `wallet_pass_auth_failed`: a device's request names no pass it may reach. */
export class WalletPassAuthFailedError extends ApiError {
  constructor() {
    super(
      401,
      'wallet_pass_auth_failed',
      'Not authorised for this pass',
      'Send Authorization: ApplePass <authenticationToken> with the token of the pass.',
    );
  }
}

/** 400 `validation_failed` for one member, said the way the contract's validation says it. */
export function invalid(path: string, message: string, code = 'invalid'): ValidationFailedError {
  const error: FieldError = { path, message, code };
  return new ValidationFailedError([error]);
}
