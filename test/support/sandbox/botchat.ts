import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { People } from './people.js';

export interface Bot {
  token: string;
  id: number;
  username: string;
}

export interface SentMessage {
  chatId: number;
  messageId: number;
  text: string | null;
  caption: string | null;
  photo: string | null;
  file?: { kind: string; url: string } | null;
  mediaGroupId?: string | null;
  at: number;
  deleted: boolean;
}

/** Someone on the platform who writes to bots. */
export interface Writer {
  id: number;
  firstName: string;
  username?: string;
}

export interface BotFault {
  /** `lost_answer`: the message is sent and the connection drops before the answer; `bad_request`: a 400 saying `description`. */
  kind: 'hang_after_send' | 'server_error' | 'rate_limited' | 'lost_answer' | 'bad_request';
  retryAfter?: number;
  description?: string;
}

/** The people of the bot platform: bot owners, and the people who write to bots. */
export class BotchatPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'botchat');
  }

  /** A new bot, made by its owner at the platform. */
  newBot(firstName = 'Sandbox Bot'): Promise<Bot> {
    return this.post('bots', { firstName });
  }

  /** A person writes to the bot: the platform sends the update to the bot's webhook. */
  sendMessage(token: string, text: string, from: Writer = { id: 4242, firstName: 'Ana' }): Promise<{ webhookStatus: number }> {
    return this.post('messages', { token, text, from });
  }

  /** A person sends the bot a file (`photo`, `video`, `voice`, `document`, `sticker`) with an optional caption. */
  sendMedia(
    token: string,
    media: string,
    caption?: string,
    from: Writer = { id: 4242, firstName: 'Ana' },
  ): Promise<{ webhookStatus: number }> {
    return this.post('messages', { token, media, ...(caption ? { text: caption } : {}), from });
  }

  /** A person shares a place with the bot. */
  sendLocation(
    token: string,
    latitude: number,
    longitude: number,
    from: Writer = { id: 4242, firstName: 'Ana' },
  ): Promise<{ webhookStatus: number }> {
    return this.post('messages', { token, location: { latitude, longitude }, from });
  }

  /** The bot's owner revokes its token: every later call with it is 401. */
  async revokeToken(token: string): Promise<void> {
    await this.post('revoke', { token });
  }

  /** The person blocks the bot: the platform refuses the bot's messages to them (403). */
  async block(token: string, userId: number): Promise<void> {
    await this.post('blocks', { token, userId });
  }

  /** A channel (by its @username) the bots may post to. */
  async newChannel(username: string): Promise<void> {
    await this.post('channels', { username });
  }

  async failNext(token: string, faults: BotFault[]): Promise<void> {
    await this.post('faults', { token, faults });
  }

  /** Every message the bot sent, deleted ones too. */
  async onPlatform(token: string): Promise<SentMessage[]> {
    return (await this.get<{ messages: SentMessage[] }>('sent', { token })).messages;
  }
}

/** A new bot at the sandbox, connected to the owner's profile: its account id and token. */
export async function connectBot(app: TestApp, owner: TestOwner, firstName = 'Poster'): Promise<{ accountId: string; token: string }> {
  const { token } = await new BotchatPeople(() => app).newBot(firstName);
  const connected = await app.api.post('/connect/botchat', { token: owner.key, body: { profileId: owner.profileId, botToken: token } });
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { accountId: connected.body.id, token };
}
