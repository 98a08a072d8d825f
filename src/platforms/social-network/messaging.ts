import { classifyMetaError, type GraphErrorBody } from '../meta/graph.js';
import type { PlatformError } from '../errors.js';
import {
  type MessageKind,
  type MessageRefusal,
  MessageRefused,
  type MessageSender,
  type MessageViolation,
  type OutgoingMessage,
  type OutgoingPart,
  type SentPart,
  textThenEachFile,
  textTooLong,
} from '../capabilities/messaging.js';
import type { PublishMedia } from '../capabilities/publishing.js';
import { type RefusalRule, refusalOf } from '../capabilities/refusals.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';

/** Messenger's Send API limits (https://developers.facebook.com/docs/messenger-platform/reference/send-api). */
const TEXT_LIMIT = 2000;

/** Messenger's attachment type and our kind for a file. */
function attachmentOf(media: PublishMedia): { type: string; kind: MessageKind } {
  if (media.kind === 'image' || media.kind === 'gif') return { type: 'image', kind: 'image' };
  if (media.kind === 'video') return { type: 'video', kind: 'video' };
  if (media.kind === 'audio') return { type: 'audio', kind: 'audio' };
  return { type: 'file', kind: 'document' };
}

/**
 * The Send API's refusals by rule, read before Meta's generic rules (which take any `(#10)` for a lost permission):
 * outside the window 10/2018278; the person not receiving from the page 10/2018108 or unavailable 551 (blocked,
 * deactivated); no person of this page with that id 100/2018001 (a wrong id, or one who never wrote to the page);
 * private replies 10900 (one per comment) and 10903 (too old).
 */
export const SEND_REFUSALS: ReadonlyArray<RefusalRule<MessageRefusal>> = [
  { subcode: 2018278, means: 'messaging_window_closed' },
  { code: 10, words: /outside of allowed window/i, means: 'messaging_window_closed' },
  { code: 10, subcode: 2018108, means: 'recipient_blocked' },
  { code: 551, means: 'recipient_blocked' },
  { code: 100, subcode: 2018001, means: 'recipient_not_found' },
  { code: 10900, means: 'private_reply_already_sent' },
  { code: 10903, means: 'private_reply_window_closed' },
];

function classifySendError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  const { code, error_subcode: subcode } = (body as GraphErrorBody | null)?.error ?? {};
  const refusal = refusalOf(SEND_REFUSALS, { code, subcode, message: error.message });
  return refusal ? new MessageRefused(refusal, error.message, error.details) : error;
}

/**
 * Messenger messages from a page, with its page token: one per file (the text first, on its own), to a person by
 * their page-scoped id or privately to a comment's author. Outside the 24-hour window only with a message tag.
 */
export class SocialNetworkMessaging implements MessageSender {
  /** A page account keeps what its grant granted: without `pages_messaging` a send is refused before the platform is asked. */
  readonly scopes = ['pages_messaging'];
  readonly receipts = true;
  readonly replyWindowHours = 24;

  constructor(private readonly client: SocialNetworkClient) {}

  validate(message: OutgoingMessage): MessageViolation[] {
    const violations: MessageViolation[] = [];
    violations.push(...textTooLong(message, TEXT_LIMIT, 'Messenger'));
    if (message.recipient.kind === 'comment' && message.tag)
      violations.push({
        path: 'messagingTag',
        message: 'A private reply takes no message tag: it is allowed once, within 7 days of the comment.',
      });
    if (message.recipient.kind === 'comment' && message.media.length > 0)
      violations.push({ path: 'mediaIds', message: 'A private reply is one text message; send files once the person answers.' });
    return violations;
  }

  parts(message: OutgoingMessage): OutgoingPart[] {
    return textThenEachFile(message);
  }

  async send(account: AdapterAccount, message: OutgoingMessage, part: OutgoingPart): Promise<SentPart[]> {
    const [file] = part.media;
    const recipient = message.recipient.kind === 'comment' ? { comment_id: message.recipient.id } : { id: message.recipient.id };
    const attachment = file ? attachmentOf(file) : null;
    const answer = await this.client.call<{ recipient_id: string; message_id: string }>(
      'POST',
      `${account.platformAccountId}/messages`,
      {
        token: account.credentials.accessToken,
        json: {
          recipient,
          ...(message.tag ? { messaging_type: 'MESSAGE_TAG', tag: message.tag.toUpperCase() } : { messaging_type: 'RESPONSE' }),
          message: attachment
            ? { attachment: { type: attachment.type, payload: { url: file!.url, is_reusable: false } } }
            : { text: part.text },
        },
      },
      classifySendError,
    );
    return [
      {
        platformMessageId: answer.message_id,
        platformConversationId: answer.recipient_id,
        kind: attachment?.kind ?? 'text',
        text: part.text,
        media: file ?? null,
      },
    ];
  }
}
