import { randomBytes } from 'node:crypto';
import { constantTimeEqual } from '../../lib/crypto.js';
import { PlatformError } from '../errors.js';
import { type BotchatClient } from './client.js';
import { type BotMessageContent, contentOf } from './incoming.js';
import { BotchatMessaging } from './messaging.js';
import { BotchatPublisher } from './publisher.js';
import type { About, AdapterAccount, Credentials, PlatformAdapter, PlatformIdentity } from '../types.js';
import type { IncomingEvent, WebhookReceiver } from '../capabilities/webhooks.js';

interface BotUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}
interface Update {
  update_id: number;
  message?: BotMessageContent & {
    message_id: number;
    from?: { id: number; first_name?: string; username?: string };
    chat: { id: number };
    date: number;
    text?: string;
    caption?: string;
  };
}

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** `botchat`: a messenger's bot API — a bot token per account, webhooks authenticated by a secret token. */
export class BotchatAdapter implements PlatformAdapter {
  readonly id = 'botchat' as const;
  /** A bot has one webhook: whoever connected it last gets its messages. */
  readonly exclusiveIdentity = true;
  readonly lacks = { insights: 'botchat accounts are bots in a chat app: the platform gives apps no audience figures for them.' };

  /** Posts: one message per chat of `platformOptions.botchat.chatIds`. */
  readonly publisher: BotchatPublisher;
  /** Direct messages to the people who wrote to the bot. */
  readonly messaging: BotchatMessaging;

  constructor(
    private readonly client: BotchatClient,
    private readonly webhookUrl: string,
  ) {
    this.publisher = new BotchatPublisher(client);
    this.messaging = new BotchatMessaging(client);
  }

  /** Verifies the token with getMe: the bot it names, before anything changes at the platform. */
  async identify(botToken: string): Promise<PlatformIdentity> {
    const me = await this.client.call<BotUser>(botToken, 'getMe');
    if (!me.is_bot) throw new PlatformError('invalid_request', 'the token is not a bot token');
    return {
      platformAccountId: String(me.id),
      kind: 'bot',
      name: me.first_name,
      username: me.username ?? null,
      avatarUrl: null,
      scopes: [],
      tokenExpiresAt: null,
    };
  }

  /**
   * Points the bot's webhook at us with a fresh secret token, replacing wherever it pointed. The token starts
   * with our account id, so an incoming update names the account whose secret it must match.
   */
  async attach(botToken: string, accountId: string): Promise<Credentials> {
    const webhookSecret = `${accountId}-${randomBytes(24).toString('base64url')}`;
    await this.client.call<boolean>(botToken, 'setWebhook', {
      url: this.webhookUrl,
      secret_token: webhookSecret,
      allowed_updates: ['message'],
    });
    return { accessToken: botToken, extra: { webhookSecret } };
  }

  async about(account: AdapterAccount): Promise<About> {
    const me = await this.client.call<BotUser & Record<string, unknown>>(account.credentials.accessToken, 'getMe');
    return {
      platformAccountId: String(me.id),
      name: me.first_name,
      username: me.username ?? null,
      bio: null,
      url: me.username ? `https://t.me/${me.username}` : null,
      pictureUrl: null,
      category: 'bot',
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: null,
      platformData: me,
    };
  }

  async revoke(account: AdapterAccount): Promise<void> {
    await this.client.call<boolean>(account.credentials.accessToken, 'deleteWebhook');
  }

  readonly webhooks: WebhookReceiver = {
    verify: async (request, accounts) => {
      const header = request.headers[SECRET_HEADER];
      const secret = Array.isArray(header) ? header[0] : header;
      const accountId = secret?.match(/^(acc_[0-9a-z]{26})-/)?.[1];
      if (!secret || !accountId) return null;
      const account = await accounts.credentialsOf(accountId);
      const expected = account?.credentials.extra?.webhookSecret;
      return expected && constantTimeEqual(secret, expected) ? { accountId } : null;
    },
    dedupeKey: (request) => {
      const header = request.headers[SECRET_HEADER];
      const accountId = String(Array.isArray(header) ? header[0] : header).slice(0, 30);
      return `${accountId}:${(JSON.parse(request.rawBody) as Update).update_id}`;
    },
    parse: (rawBody, source): IncomingEvent[] => {
      const update = JSON.parse(rawBody) as Update;
      const message = update.message;
      const content = message ? contentOf(message) : null;
      const text = message?.text ?? message?.caption ?? (content ? '' : undefined);
      if (!message || text === undefined) return [];
      return [
        {
          kind: 'message',
          accountId: source.accountId,
          platformAccountId: null,
          platformConversationId: String(message.chat.id),
          from: String(message.from?.id ?? message.chat.id),
          fromName: message.from?.first_name ?? null,
          fromUsername: message.from?.username ?? null,
          text,
          platformMessageId: `${message.chat.id}:${message.message_id}`,
          sentAt: new Date(message.date * 1000),
          ...(content ?? {}),
        },
      ];
    },
    subscriptionProblem: async (account) => {
      const info = await this.client.call<{ url: string }>(account.credentials.accessToken, 'getWebhookInfo');
      if (info.url === this.webhookUrl) return null;
      return info.url
        ? `The bot's webhook points elsewhere (${info.url}): messages to the bot do not reach the service.`
        : 'The bot has no webhook: messages to the bot do not reach the service.';
    },
  };
}
