import { PlatformError } from '../errors.js';
import {
  type MessageKind,
  type MessageRefusal,
  MessageRefused,
  type MessageSender,
  type MessageViolation,
  type OutgoingMessage,
  type OutgoingPart,
  type SentPart,
  textTooLong,
} from '../capabilities/messaging.js';
import type { PublishMedia } from '../capabilities/publishing.js';
import { type RefusalRule, refusalOf } from '../capabilities/refusals.js';
import type { AdapterAccount } from '../types.js';
import type { BotchatClient } from './client.js';

/**
 * The bot API's refusals of a message (`error_code` and `description`): a 403 is the person's doing — they blocked
 * the bot, never started it, left the group — unless their account is gone; a 400 `chat not found` names nobody the
 * bot knows.
 */
export const SEND_REFUSALS: ReadonlyArray<RefusalRule<MessageRefusal>> = [
  { code: 403, words: /user is deactivated/i, means: 'recipient_not_found' },
  { code: 403, means: 'recipient_blocked' },
  { code: 400, words: /chat not found|user not found/i, means: 'recipient_not_found' },
];

/** The bot API's limits (https://core.telegram.org/bots/api#sendmessage, #sendmediagroup). */
const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
const ALBUM_MIN = 2;
const ALBUM_MAX = 10;

interface BotMessage {
  message_id: number;
  chat: { id: number };
  text?: string;
  caption?: string;
}

/** The method, its file parameter and the stored kind, for one file sent on its own. */
function methodFor(media: PublishMedia): { method: string; field: string; kind: MessageKind } {
  if (media.kind === 'image') return { method: 'sendPhoto', field: 'photo', kind: 'image' };
  if (media.kind === 'gif') return { method: 'sendAnimation', field: 'animation', kind: 'video' };
  if (media.kind === 'video') return { method: 'sendVideo', field: 'video', kind: 'video' };
  if (media.kind === 'audio') return { method: 'sendAudio', field: 'audio', kind: 'audio' };
  return { method: 'sendDocument', field: 'document', kind: 'document' };
}

const inAlbum = (media: PublishMedia) => media.kind === 'image' || media.kind === 'video';

/**
 * Direct messages from a bot: a text, one file per message with the text as its caption, or 2-10 photos and
 * videos as one album (sendMediaGroup: one message per item). The bot API's 403 means the person blocked the
 * bot or never wrote to it: a refusal of this message, not of the account's token.
 */
export class BotchatMessaging implements MessageSender {
  readonly scopes = [];
  readonly receipts = false;

  constructor(private readonly client: BotchatClient) {}

  validate(message: OutgoingMessage): MessageViolation[] {
    const violations: MessageViolation[] = [];
    if (message.recipient.kind === 'comment') violations.push({ path: 'commentId', message: 'botchat has no comments to reply to.' });
    if (message.tag)
      violations.push({ path: 'messagingTag', message: 'Message tags are a social_network Messenger rule; botchat has none.' });
    violations.push(...textTooLong(message, TEXT_LIMIT, 'botchat'));
    return violations;
  }

  parts(message: OutgoingMessage): OutgoingPart[] {
    const { text, media } = message;
    if (media.length === 0) return [{ text, media: [] }];
    // A text too long for a caption goes first, on its own.
    const captioned = text !== null && text.length <= CAPTION_LIMIT;
    const parts: OutgoingPart[] = captioned || text === null ? [] : [{ text, media: [] }];
    const caption = captioned ? text : null;
    if (media.length >= ALBUM_MIN && media.length <= ALBUM_MAX && media.every(inAlbum)) return [...parts, { text: caption, media }];
    return [...parts, ...media.map((file, index) => ({ text: index === 0 ? caption : null, media: [file] }))];
  }

  async send(account: AdapterAccount, message: OutgoingMessage, part: OutgoingPart): Promise<SentPart[]> {
    const chatId = message.recipient.id;
    const caption = part.text === null ? {} : { caption: part.text };
    if (part.media.length > 1) {
      const album = part.media.map((file, index) => ({
        type: file.kind === 'image' ? 'photo' : 'video',
        media: file.url,
        ...(index === 0 ? caption : {}),
      }));
      const sent = await this.call<BotMessage[]>(account, 'sendMediaGroup', { chat_id: chatId, media: album });
      return sent.map((one, index) =>
        this.sentPart(one, part.media[index]!.kind === 'image' ? 'image' : 'video', index === 0 ? part.text : null, part.media[index]!),
      );
    }
    const [file] = part.media;
    if (!file)
      return [
        this.sentPart(await this.call<BotMessage>(account, 'sendMessage', { chat_id: chatId, text: part.text }), 'text', part.text, null),
      ];
    const { method, field, kind } = methodFor(file);
    const sent = await this.call<BotMessage>(account, method, { chat_id: chatId, [field]: file.url, ...caption });
    return [this.sentPart(sent, kind, part.text, file)];
  }

  download(account: AdapterAccount, ref: string) {
    return this.client.download(account.credentials.accessToken, ref);
  }

  private sentPart(message: BotMessage, kind: MessageKind, text: string | null, media: PublishMedia | null): SentPart {
    return {
      platformMessageId: `${message.chat.id}:${message.message_id}`,
      platformConversationId: String(message.chat.id),
      kind,
      text,
      media,
    };
  }

  private async call<T>(account: AdapterAccount, method: string, params: Record<string, unknown>): Promise<T> {
    try {
      return await this.client.call<T>(account.credentials.accessToken, method, params);
    } catch (error) {
      const refusal =
        error instanceof PlatformError && refusalOf(SEND_REFUSALS, { code: Number(error.details.platformCode), message: error.message });
      if (refusal) throw new MessageRefused(refusal, error.message, (error as PlatformError).details);
      throw error;
    }
  }
}
