import { ApiError, UnprocessableError } from '../../lib/errors.js';
import { AccountNotConnectedError } from '../accounts/errors.js';
import { type MessageRefusal, MessageRefused } from '../../platforms/capabilities/messaging.js';
import type { PlatformError } from '../../platforms/errors.js';

const TITLES: Record<MessageRefusal, string> = {
  messaging_window_closed: 'The messaging window is closed',
  recipient_blocked: 'The recipient blocked the account',
  recipient_not_found: 'The platform knows no such recipient',
  private_reply_already_sent: 'The comment was answered privately already',
  private_reply_window_closed: 'The comment is too old for a private reply',
  template_invalid: 'The template cannot be sent so',
};

/** 422: the platform's rule refused the message; `detail` says the rule and the platform's words. */
export class MessageRefusedError extends UnprocessableError {
  constructor(refusal: MessageRefusal, detail: string) {
    super(refusal, TITLES[refusal], detail);
  }
}

/** 422: a media id that is not one of the owner's uploads. */
export class MediaNotFoundError extends UnprocessableError {
  constructor(ids: string[]) {
    super('media_not_found', 'Media not found', `No uploaded media ${ids.join(', ')}; upload the files with POST /upload first.`);
  }
}

/** 400 for a message the platform would refuse outright, naming the member. */
export class MessageInvalidError extends ApiError {
  constructor(errors: Array<{ path: string; message: string }>) {
    super(400, 'validation_failed', 'The message breaks a rule of the platform', errors.map((e) => e.message).join(' '), {
      errors: errors.map((e) => ({ path: `body/${e.path}`, code: 'platform_rule', message: e.message })),
    });
  }
}

/** 422: the platform refused the message for a reason none of its known rules names; `detail` carries its words. */
export class PlatformRefusedError extends UnprocessableError {
  constructor(words: string) {
    super('platform_refused', 'The platform refused the message', `The platform refused: ${words}`);
  }
}

/**
 * For `withConnectedAccount`'s `handle`: a refusal by the platform's rules is its 422, not a 502; one the platform's
 * rules do not name is a 422 with its words. Failures of the account (tokens, permissions), throttling and the
 * platform's own outages keep their meaning.
 */
export function refusalProblem(error: PlatformError): void {
  if (error instanceof MessageRefused) throw new MessageRefusedError(error.refusal, `The platform refused: ${error.message}`);
  if (error.kind === 'invalid_request') throw new PlatformRefusedError(error.message);
}

/** 409: a qrchat account whose linked device is gone (the phone unlinked it): it sends again once paired again. */
export class AccountUnpairedError extends AccountNotConnectedError {
  constructor(status: string) {
    super(
      `The account is ${status.replace('_', ' ')}: its linked device was logged out, so nothing can be sent from it. ` +
        'Pair it again (POST /connect/qrchat with its accountId) and scan the new QR code with the phone.',
    );
  }
}
