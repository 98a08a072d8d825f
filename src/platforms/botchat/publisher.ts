import { PlatformError } from '../errors.js';
import {
  PostNotFound,
  type Published,
  type PublishContent,
  type Publisher,
  type PublishedEdit,
  PublishRefused,
  type RuleViolation,
} from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { BotchatClient } from './client.js';

/** The bot API's limits (https://core.telegram.org/bots/api#sendmessage, #sendphoto). */
const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
const PHOTO_BYTES = 10 * 1024 * 1024;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

interface SentMessage {
  message_id: number;
  chat: { id: number; username?: string };
}
/** Kept with the target: the message sent to each chat so far, so that a retry never sends to a chat twice. */
interface BotchatState {
  sent?: Record<string, { chatId: number; messageId: number; username?: string }>;
}

/** `<chatId>:<messageId>`, the platform post id of a bot's message; anything else names no message. */
function messageOf(platformPostId: string): { chatId: number; messageId: number } {
  const match = /^(-?\d+):(\d+)$/.exec(platformPostId);
  if (!match) throw new PostNotFound(platformPostId);
  return { chatId: Number(match[1]), messageId: Number(match[2]) };
}

/**
 * A post to a bot is one message per chat of `platformOptions.botchat.chatIds` (sendMessage, or sendPhoto
 * with the caption). The bot API has no idempotency key and no way to list what a bot sent, so a lost answer
 * cannot be reconciled: no `reconcile`, and such a target fails with `unknown` instead of risking a duplicate.
 */
export class BotchatPublisher implements Publisher {
  constructor(private readonly client: BotchatClient) {}

  validate(content: PublishContent): RuleViolation[] {
    const violations: RuleViolation[] = [];
    const chatIds = content.options.chatIds as string[] | undefined;
    if (!chatIds || chatIds.length === 0) {
      violations.push({
        path: 'platformOptions/botchat/chatIds',
        code: 'required_option',
        message: 'botchat posts need platformOptions.botchat.chatIds: the chats, groups or channels to send to.',
      });
    }
    if (!content.text && content.media.length === 0) {
      violations.push({ path: 'text', code: 'text_or_media_required', message: 'botchat needs text or a photo.' });
    }
    if (content.media.length > 1) {
      violations.push({
        path: 'mediaIds',
        code: 'media_count',
        limit: 1,
        message: `The post has ${content.media.length} media; botchat posts take one photo.`,
      });
    }
    content.media.forEach((media, index) => {
      if (media.kind !== 'image' || !PHOTO_TYPES.has(media.mimeType)) {
        violations.push({
          path: `mediaIds/${index}`,
          code: 'media_type',
          message: `botchat posts take a JPEG, PNG or WebP photo, not ${media.mimeType}.`,
        });
      } else if (media.size > PHOTO_BYTES) {
        violations.push({
          path: `mediaIds/${index}`,
          code: 'media_size',
          limit: PHOTO_BYTES,
          message: `The photo has ${media.size} bytes; botchat takes up to ${PHOTO_BYTES}.`,
        });
      }
    });
    const limit = content.media.length > 0 ? CAPTION_LIMIT : TEXT_LIMIT;
    if (content.text && content.text.length > limit) {
      violations.push({
        path: 'text',
        code: 'max_length',
        limit,
        message: `The text has ${content.text.length} characters; botchat allows ${limit}${content.media.length > 0 ? ' in a photo caption' : ''}.`,
      });
    }
    return violations;
  }

  async publish(
    account: AdapterAccount,
    content: PublishContent,
    progress: { state: BotchatState; save(state: BotchatState): Promise<void> },
  ): Promise<Published> {
    const chatIds = content.options.chatIds as string[];
    const sent = { ...progress.state.sent };
    const refused: Array<{ chatId: string; error: PublishRefused }> = [];
    let unsaved = false;
    for (const [index, chatId] of chatIds.entries()) {
      if (sent[chatId]) continue;
      try {
        const message =
          content.media.length > 0
            ? await this.call<SentMessage>(account, 'sendPhoto', {
                chat_id: chatId,
                photo: content.media[0]!.url,
                ...(content.text ? { caption: content.text } : {}),
              })
            : await this.call<SentMessage>(account, 'sendMessage', { chat_id: chatId, text: content.text });
        sent[chatId] = {
          chatId: message.chat.id,
          messageId: message.message_id,
          ...(message.chat.username ? { username: message.chat.username } : {}),
        };
        unsaved = true;
      } catch (error) {
        if (!(error instanceof PublishRefused)) {
          // The account or the platform failed, not this chat: what was sent is kept, the rest waits for the retry.
          if (unsaved) await progress.save({ sent });
          throw error;
        }
        refused.push({ chatId, error });
      }
      // A later chat's failure must not lose this one's message id: saved before the next call.
      if (unsaved && index < chatIds.length - 1) {
        await progress.save({ sent });
        unsaved = false;
      }
    }
    if (refused.length > 0) {
      if (unsaved) await progress.save({ sent });
      const first = refused[0]!.error;
      const list = refused.map(({ chatId, error }) => `${chatId} (${error.message})`).join(', ');
      throw new PublishRefused(
        first.kind,
        `${refused.length} of ${chatIds.length} chats refused the message: ${list}.`,
        first.failure,
        first.details,
      );
    }
    const first = sent[chatIds[0]!]!;
    return {
      platformPostId: `${first.chatId}:${first.messageId}`,
      url: first.username ? `https://t.me/${first.username}/${first.messageId}` : null,
      state: { sent },
    };
  }

  /**
   * Bots may delete their own messages for 48 hours: every chat's message of one of our posts goes; a message
   * not sent through us is named by its id alone (`<chatId>:<messageId>`).
   */
  async delete(account: AdapterAccount, platformPostId: string, state: BotchatState): Promise<void> {
    const messages = state.sent ? Object.values(state.sent) : [messageOf(platformPostId)];
    let gone = 0;
    for (const message of messages) {
      try {
        await this.call<boolean>(account, 'deleteMessage', { chat_id: message.chatId, message_id: message.messageId });
      } catch (error) {
        // "message to delete not found": deleted in the chat already (or too old, or never the bot's).
        if (!(error instanceof PublishRefused && error.details.platformCode === 400 && /not found/i.test(error.message))) throw error;
        gone += 1;
      }
    }
    if (gone === messages.length) throw new PostNotFound(platformPostId);
  }

  /** Every chat's message of the post takes the new text (a photo's caption) in place. */
  readonly editable = ['text'] as const;

  /**
   * `editMessageText` (or `editMessageCaption` for a photo) in every chat the post went to. A message already so
   * ("message is not modified": an edit whose answer was lost, sent again) is done; one deleted in its chat is
   * skipped, and the post is gone when every one is.
   */
  async edit(account: AdapterAccount, platformPostId: string, state: BotchatState, { content }: PublishedEdit): Promise<void> {
    const messages = state.sent ? Object.values(state.sent) : [messageOf(platformPostId)];
    const change =
      content.media.length > 0 ? { method: 'editMessageCaption', field: 'caption' } : { method: 'editMessageText', field: 'text' };
    let gone = 0;
    for (const message of messages) {
      try {
        await this.call<unknown>(account, change.method, {
          chat_id: message.chatId,
          message_id: message.messageId,
          [change.field]: content.text ?? '',
        });
      } catch (error) {
        if (!(error instanceof PublishRefused && error.details.platformCode === 400)) throw error;
        if (/message to edit not found/i.test(error.message)) gone += 1;
        else if (!/message is not modified/i.test(error.message)) throw error;
      }
    }
    if (gone === messages.length) throw new PostNotFound(platformPostId);
  }

  /** A chat-level refusal (no such chat, the bot blocked or not a member) fails that chat, not the account. */
  private async call<T>(account: AdapterAccount, method: string, params: Record<string, unknown>): Promise<T> {
    try {
      return await this.client.call<T>(account.credentials.accessToken, method, params);
    } catch (error) {
      throw error instanceof PlatformError ? chatRefusal(error) : error;
    }
  }
}

function chatRefusal(error: PlatformError): PlatformError {
  const description = error.message;
  if (error.details.platformCode === 403) return new PublishRefused('invalid_request', description, 'permission_denied', error.details);
  if (error.details.platformCode === 400) {
    const failure = /too long/i.test(description)
      ? 'text_too_long'
      : /file|url|photo|image/i.test(description)
        ? 'media_invalid'
        : 'unknown';
    return new PublishRefused('invalid_request', description, failure, error.details);
  }
  return error;
}
