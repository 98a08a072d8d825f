import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import type { PublishMedia } from './publishing.js';

/**
 * Sending direct messages from an account: to a person by the platform's id of them (a PSID, a chat id, a phone
 * number) or, where the platform has private replies, to the author of a comment.
 */

export type MessageRecipient = { kind: 'user'; id: string } | { kind: 'comment'; id: string };

/** The kinds a stored message may have (the contract's `Message.type`). */
export type MessageKind = 'text' | 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'template' | 'other';

/** A message as asked for: its text and files in order, and the platform's options (a Messenger tag). */
export interface OutgoingMessage {
  recipient: MessageRecipient;
  text: string | null;
  media: PublishMedia[];
  /** A Messenger message tag, for a send outside the 24-hour window. */
  tag?: string;
}

/** What one platform call sends: a text, a file with an optional caption, or an album of files. */
export interface OutgoingPart {
  text: string | null;
  media: PublishMedia[];
}

/** The text's violation where it is longer than the platform allows (`platform`: the name the message gives it). */
export function textTooLong(message: OutgoingMessage, limit: number, platform: string): MessageViolation[] {
  const length = message.text?.length ?? 0;
  return length > limit ? [{ path: 'text', message: `The text has ${length} characters; ${platform} allows ${limit}.` }] : [];
}

/** The text as a message of its own, then one message per file: for platforms whose files take no caption here. */
export function textThenEachFile(message: OutgoingMessage): OutgoingPart[] {
  const text: OutgoingPart[] = message.text === null ? [] : [{ text: message.text, media: [] }];
  return [...text, ...message.media.map((file) => ({ text: null, media: [file] }))];
}

/** One message the platform stored, of the messages a part became. */
export interface SentPart {
  platformMessageId: string;
  /** The conversation at the platform it landed in (the person's id: a private reply names them only now). */
  platformConversationId: string;
  kind: MessageKind;
  text: string | null;
  /** The file this message carries, if any. */
  media: PublishMedia | null;
}

/** Rules of the platform that refuse a message to this person now; the contract's codes for them. */
export type MessageRefusal =
  | 'messaging_window_closed'
  | 'recipient_blocked'
  | 'recipient_not_found'
  | 'private_reply_already_sent'
  | 'private_reply_window_closed'
  | 'template_invalid';

/** The platform refused the message by one of its rules (nothing was sent): a 422 naming the rule, never a 502. */
export class MessageRefused extends PlatformError {
  constructor(
    readonly refusal: MessageRefusal,
    message: string,
    details: PlatformError['details'] = {},
  ) {
    super('invalid_request', message, details);
    this.name = 'MessageRefused';
  }
}

/** A rule the message breaks before anything is sent (a field and why), for a 400. */
export interface MessageViolation {
  path: string;
  message: string;
}

export interface MessageSender {
  /** Platform scopes an account needs to send (422 `permission_missing` without them). */
  readonly scopes: readonly string[];
  /** Where the platform takes free-form messages only so long after the person's last message, the window in hours. */
  readonly replyWindowHours?: number;
  /**
   * Whether the platform says a message came outside that window only after accepting it (the chat app's failed
   * status): the service checks the window first. Elsewhere the platform refuses it when it is sent.
   */
  readonly windowRefusedLate?: boolean;
  /**
   * Whether the platform's webhooks report how sent messages fare (delivered, read, failed): such a receipt may
   * arrive before the message is stored, and is kept until it is.
   */
  readonly receipts: boolean;
  /** What the platform refuses outright (a text too long, a file kind it does not take, a recipient form it lacks). */
  validate(message: OutgoingMessage): MessageViolation[];
  /** How the message is split into platform calls (one per file, or one album), in sending order. */
  parts(message: OutgoingMessage): OutgoingPart[];
  /** One call: the messages the platform stored. A refusal by the platform's rules is a `MessageRefused`. */
  send(account: AdapterAccount, message: OutgoingMessage, part: OutgoingPart): Promise<SentPart[]>;
  /** A file a person sent, by the platform's id of it, where only the account's credentials can fetch it. */
  download?(account: AdapterAccount, ref: string): Promise<{ bytes: Buffer; mimeType: string | null }>;
}

/** A message in the cloud chat API's own shape (`type` and the member it names), `to` in E.164 digits. */
export interface ChatappPayload {
  to: string;
  type: string;
  content: Record<string, unknown>;
  replyTo?: string;
}

/** An approved template: its placeholders per component, which a send must fill. */
export interface ChatappTemplate {
  name: string;
  language: string;
  category: string;
  components: Array<{ type: string; text: string | null; parameterCount: number }>;
}

/** The cloud chat API's own messages (templates, buttons, reactions) and its approved templates. */
export interface ChatappSender {
  sendNative(account: AdapterAccount, payload: ChatappPayload): Promise<{ platformMessageId: string; waId: string }>;
  templates(account: AdapterAccount, page: { limit: number; after?: string }): Promise<{ data: ChatappTemplate[]; after: string | null }>;
}

/**
 * Direct messages that leave through a live session (a linked device's socket) which one worker process holds:
 * the service queues each message for that process, with the message id the protocol lets the sender choose.
 */
export interface SessionMessaging {
  /** What the protocol refuses outright (a comment recipient, a tag, a file kind it does not carry). */
  validate(message: OutgoingMessage): MessageViolation[];
  /** The messages one send becomes, in sending order: a text, or each file (the text as the first one's caption). */
  parts(message: OutgoingMessage): OutgoingPart[];
  /** A new message id, as the protocol's clients make them. */
  newMessageId(): string;
}
