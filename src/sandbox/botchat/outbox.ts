import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PublicUrls } from '../public-urls.js';
import { entitiesRefusal } from './entities.js';
import type { Bot } from './platform.js';

/** What a bot sent, as the platform keeps it (the sandbox's people read it to check a post arrived once). */
interface Sent {
  botId: number;
  chatId: number;
  messageId: number;
  text: string | null;
  caption: string | null;
  photo: string | null;
  /** The photo's `file_id` when it was sent by one already given (else `photo-<messageId>`). */
  photoFileId?: string;
  /** A video, audio or document sent (`sendVideo`, `sendAudio`, `sendDocument`, `sendAnimation`, an album's videos). */
  file?: { kind: string; url: string } | null;
  /** The album (`sendMediaGroup`) the message is an item of. */
  mediaGroupId?: string | null;
  at: number;
  /** When the bot last edited its text or caption (`editMessageText`, `editMessageCaption`). */
  editedAt?: number;
  deleted: boolean;
}

/**
 * One failure the platform answers to a bot's next send, in the bot API's real shapes: `rate_limited` (429
 * with `retry_after`), `server_error` (500: nothing sent), `hang_after_send` (the message is delivered and
 * the answer never comes — what a service sees when it dies mid-call, or its connection does).
 */
/** `bad_request`: the API refuses the next message with this `description` (a 400, as for a rule it enforces). */
type Fault =
  | { kind: 'rate_limited'; retryAfter?: number }
  | { kind: 'server_error' }
  | { kind: 'bad_request'; description: string }
  | { kind: 'hang_after_send' }
  | { kind: 'lost_answer' };

/** The file parameter of each single-file method, and the kind it records. */
const FILE_METHODS: Record<string, { field: string; kind: string }> = {
  sendVideo: { field: 'video', kind: 'video' },
  sendAudio: { field: 'audio', kind: 'audio' },
  sendDocument: { field: 'document', kind: 'document' },
  sendAnimation: { field: 'animation', kind: 'animation' },
};

/** What the outbox asks of the rest of the platform. */
export interface OutboxChecks {
  /** Why the platform refuses this bot's messages to this chat (403), or null. */
  refusal(bot: Bot, chatId: number): string | null;
  /** Whether a person sent the bot a photo with this `file_id` (which the bot may send on). */
  personsPhoto(bot: Bot, fileId: string): boolean;
  /** The URLs the platform fetches from. */
  urls: PublicUrls;
}

/** Fetches a file by URL as the platform does: false when it cannot (or, strict, may not), or the type is not `accept`. */
async function fetchFile(urls: PublicUrls, url: string, accept: RegExp): Promise<boolean> {
  const fetched = await urls.fetch(url);
  if (!fetched || !fetched.ok) return false;
  const typed = accept.test(fetched.headers.get('content-type') ?? '');
  await fetched.arrayBuffer();
  return typed;
}

/** A photo's largest size as the platform describes it: its `file_unique_id` is the same whoever sends it on. */
function photoSize(fileId: string) {
  return { file_id: fileId, file_unique_id: `u${fileId.replace(/^photo-/, '')}`, width: 800, height: 600 };
}

/** A message as the bot API answers it. */
function messageView(bot: Bot, chat: { id: number; type: string; username?: string }, message: Sent) {
  return {
    message_id: message.messageId,
    from: { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username },
    date: Math.floor(message.at / 1000),
    chat: { id: chat.id, type: chat.type, ...(chat.username ? { username: chat.username } : {}) },
    ...(message.text !== null ? { text: message.text } : {}),
    ...(message.photo !== null ? { photo: [photoSize(message.photoFileId ?? `photo-${message.messageId}`)] } : {}),
    ...(message.file ? { [message.file.kind]: { file_id: `file-${message.messageId}`, file_unique_id: `f${message.messageId}` } } : {}),
    ...(message.mediaGroupId ? { media_group_id: message.mediaGroupId } : {}),
    ...(message.caption !== null ? { caption: message.caption } : {}),
  };
}

/** Answers a fault that refuses the call before anything is done (429, 500, a 400); true when it did. */
function refusedFor(fault: Fault | undefined, fail: (code: number, description: string, extra?: Record<string, unknown>) => void): boolean {
  if (fault?.kind === 'rate_limited') {
    const retryAfter = fault.retryAfter ?? 1;
    fail(429, `Too Many Requests: retry after ${retryAfter}`, { parameters: { retry_after: retryAfter } });
  } else if (fault?.kind === 'server_error') fail(500, 'Internal Server Error');
  else if (fault?.kind === 'bad_request') fail(400, fault.description);
  else return false;
  return true;
}

/** What the outbox keeps across a restart: what was sent (a post deleted later must be found) and the channels. */
export interface OutboxState {
  sent: Sent[];
  channels: Map<string, number>;
}

/** sendMessage, sendPhoto (fetching the photo's URL as the platform does), editing and deleteMessage, with chats and faults. */
export class BotOutbox {
  private readonly sent: Sent[];
  private readonly byKey = new Map<string, Sent>();
  /** Channels and groups by `@username`; numeric ids are people's private chats and always exist. */
  private readonly channels: Map<string, number>;
  private readonly faults = new Map<number, Fault[]>();

  constructor(
    private readonly nextMessageId: () => number,
    restored: OutboxState | undefined,
    private readonly checks: OutboxChecks,
  ) {
    this.sent = restored?.sent ?? [];
    this.channels = restored?.channels ?? new Map([['@sandbox_channel', -1001000000001]]);
    for (const sent of this.sent) this.byKey.set(`${sent.botId}:${sent.chatId}:${sent.messageId}`, sent);
  }

  state(): OutboxState {
    return { sent: this.sent, channels: this.channels };
  }

  private chatOf(chatId: unknown): { id: number; username?: string; type: string } | null {
    const raw = String(chatId ?? '');
    if (/^-?\d+$/.test(raw)) return { id: Number(raw), type: Number(raw) < 0 ? 'channel' : 'private' };
    const id = this.channels.get(raw);
    return id === undefined ? null : { id, username: raw.slice(1), type: 'channel' };
  }

  /**
   * The photo a `sendPhoto` names, as the platform takes one: a URL it fetches, a file uploaded with the request (as
   * `photo` itself, or `attach://<part>`), or the `file_id` of a photo the bot sent or was sent. Null: refused.
   */
  private async photoOf(bot: Bot, photo: unknown, uploads: Record<string, unknown>): Promise<Pick<Sent, 'photo' | 'photoFileId'> | null> {
    const named = String(photo ?? '');
    const part = named.startsWith('attach://') ? uploads[named.slice('attach://'.length)] : photo === undefined ? uploads.photo : undefined;
    const upload = (Array.isArray(part) ? part[0] : part) as { size?: number; originalFilename?: string } | undefined;
    if (upload) return (upload.size ?? 0) > 0 ? { photo: `upload:${upload.originalFilename ?? 'photo'}` } : null;
    if (/^https?:\/\//.test(named)) return (await fetchFile(this.checks.urls, named, /^image\//)) ? { photo: named } : null;
    const sent = /^photo-\d+$/.test(named)
      ? this.sent.find((m) => m.botId === bot.id && m.photo && `photo-${m.messageId}` === named)
      : undefined;
    if (sent) return { photo: sent.photo, photoFileId: sent.photoFileId ?? named };
    return this.checks.personsPhoto(bot, named) ? { photo: named, photoFileId: named } : null;
  }

  async send(
    ctx: RouterContext,
    bot: Bot,
    method: string,
    params: Record<string, unknown>,
    uploads: Record<string, unknown> = {},
  ): Promise<void> {
    const fail = (code: number, description: string, extra: Record<string, unknown> = {}) => {
      ctx.status = code;
      ctx.body = { ok: false, error_code: code, description, ...extra };
    };
    if (!params.chat_id) return fail(400, 'Bad Request: chat_id is empty');
    const chat = this.chatOf(params.chat_id);
    if (!chat) return fail(400, 'Bad Request: chat not found');
    const fault = this.faults.get(bot.id)?.shift();
    if (refusedFor(fault, fail)) return;
    const refused = this.checks.refusal(bot, chat.id);
    if (refused) return fail(403, refused);
    const caption = params.caption === undefined ? null : String(params.caption);
    if (caption && caption.length > 1024) return fail(400, 'Bad Request: message caption is too long');
    const unparsable = entitiesRefusal(String(params.text ?? caption ?? ''), params.parse_mode);
    if (unparsable) return fail(400, unparsable);
    let messages: Sent[];
    if (method === 'sendMediaGroup') {
      const items = (typeof params.media === 'string' ? JSON.parse(params.media) : params.media) as
        Array<Record<string, unknown>> | undefined;
      if (!Array.isArray(items) || items.length < 2 || items.length > 10)
        return fail(400, 'Bad Request: wrong number of messages in the media group: 2-10 are allowed');
      for (const item of items) {
        const unparsableCaption = entitiesRefusal(String(item.caption ?? ''), item.parse_mode);
        if (unparsableCaption) return fail(400, unparsableCaption);
        const accept = item.type === 'photo' ? /^image\// : item.type === 'video' ? /^video\// : null;
        if (!accept || !(await fetchFile(this.checks.urls, String(item.media ?? ''), accept)))
          return fail(400, 'Bad Request: wrong file identifier/HTTP URL specified');
      }
      const group = `g${Date.now()}${Math.floor(Math.random() * 1000)}`;
      messages = items.map((item) =>
        this.record(bot, chat.id, {
          text: null,
          caption: item.caption === undefined ? null : String(item.caption),
          photo: item.type === 'photo' ? String(item.media) : null,
          file: item.type === 'video' ? { kind: 'video', url: String(item.media) } : null,
          mediaGroupId: group,
        }),
      );
    } else if (method === 'sendPhoto') {
      const photo = await this.photoOf(bot, params.photo, uploads);
      if (!photo) return fail(400, 'Bad Request: wrong file identifier/HTTP URL specified');
      messages = [this.record(bot, chat.id, { text: null, caption, ...photo })];
    } else if (FILE_METHODS[method]) {
      const { field, kind } = FILE_METHODS[method];
      const url = String(params[field] ?? '');
      if (!(await fetchFile(this.checks.urls, url, /./))) return fail(400, 'Bad Request: wrong file identifier/HTTP URL specified');
      messages = [this.record(bot, chat.id, { text: null, caption, photo: null, file: { kind, url } })];
    } else {
      const text = String(params.text ?? '');
      if (text.length < 1) return fail(400, 'Bad Request: message text is empty');
      if (text.length > 4096) return fail(400, 'Bad Request: message is too long');
      messages = [this.record(bot, chat.id, { text, caption: null, photo: null })];
    }
    if (fault?.kind === 'hang_after_send') {
      // Delivered; the answer never leaves. The connection is held until the caller gives up or the sandbox closes.
      await new Promise(() => {});
    }
    if (fault?.kind === 'lost_answer') {
      // Delivered; the connection drops before the answer, as when a proxy or the network fails.
      ctx.req.socket.destroy();
      return;
    }
    const results = messages.map((message) => messageView(bot, chat, message));
    ctx.body = { ok: true, result: method === 'sendMediaGroup' ? results : results[0] };
  }

  /**
   * `editMessageText` (a text message's) and `editMessageCaption` (a photo's or a file's), of a message the bot sent,
   * in the bot API's words: a message gone, of the other kind, or already so is refused (400); the edited message is
   * answered. The bot's faults apply as to a send (`lost_answer`: edited, the answer lost).
   */
  edit(ctx: RouterContext, bot: Bot, method: 'editMessageText' | 'editMessageCaption', params: Record<string, unknown>): void {
    const fail = (code: number, description: string, extra: Record<string, unknown> = {}) => {
      ctx.status = code;
      ctx.body = { ok: false, error_code: code, description, ...extra };
    };
    const chat = this.chatOf(params.chat_id);
    if (!chat) return fail(400, 'Bad Request: chat not found');
    const fault = this.faults.get(bot.id)?.shift();
    if (refusedFor(fault, fail)) return;
    const sent = this.byKey.get(`${bot.id}:${chat.id}:${Number(params.message_id)}`);
    if (!sent || sent.deleted) return fail(400, 'Bad Request: message to edit not found');
    const field = method === 'editMessageText' ? 'text' : 'caption';
    const value = String(params[field] ?? '');
    if (field === 'text') {
      if (sent.text === null) return fail(400, 'Bad Request: there is no text in the message to edit');
      if (value.length < 1) return fail(400, 'Bad Request: message text is empty');
      if (value.length > 4096) return fail(400, 'Bad Request: message is too long');
    } else {
      if (sent.photo === null && !sent.file) return fail(400, 'Bad Request: there is no caption in the message to edit');
      if (value.length > 1024) return fail(400, 'Bad Request: message caption is too long');
    }
    const unparsable = entitiesRefusal(value, params.parse_mode);
    if (unparsable) return fail(400, unparsable);
    if ((sent[field] ?? '') === value) {
      return fail(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    sent[field] = field === 'caption' && value === '' ? null : value;
    sent.editedAt = Date.now();
    if (fault?.kind === 'lost_answer') {
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = { ok: true, result: { ...messageView(bot, chat, sent), edit_date: Math.floor(sent.editedAt / 1000) } };
  }

  delete(ctx: RouterContext, bot: Bot, params: Record<string, unknown>): void {
    const chat = this.chatOf(params.chat_id);
    const sent = chat ? this.byKey.get(`${bot.id}:${chat.id}:${Number(params.message_id)}`) : undefined;
    if (!sent || sent.deleted) {
      ctx.status = 400;
      ctx.body = { ok: false, error_code: 400, description: 'Bad Request: message to delete not found' };
      return;
    }
    sent.deleted = true;
    ctx.body = { ok: true, result: true };
  }

  private record(
    bot: Bot,
    chatId: number,
    content: Pick<Sent, 'text' | 'caption' | 'photo' | 'photoFileId' | 'file' | 'mediaGroupId'>,
  ): Sent {
    const sent: Sent = { botId: bot.id, chatId, messageId: this.nextMessageId(), ...content, at: Date.now(), deleted: false };
    this.sent.push(sent);
    this.byKey.set(`${sent.botId}:${sent.chatId}:${sent.messageId}`, sent);
    return sent;
  }

  /** The people's controls: channels to post to, faults to meet, and what every bot sent. */
  mount(router: Router, botOf: (token: string) => Bot | undefined): void {
    router.post('/_sandbox/botchat/channels', (ctx) => {
      const username = String((ctx.request.body as { username?: string } | undefined)?.username ?? '').replace(/^@?/, '@');
      if (!/^@[A-Za-z0-9_]{4,32}$/.test(username)) {
        ctx.status = 400;
        ctx.body = { error: 'username must be 4–32 letters, digits or _' };
        return;
      }
      if (!this.channels.has(username)) this.channels.set(username, -1001000000001 - this.channels.size);
      ctx.status = 201;
      ctx.body = { chatId: username, id: this.channels.get(username) };
    });
    router.post('/_sandbox/botchat/faults', (ctx) => {
      const body = (ctx.request.body ?? {}) as { token?: string; faults?: Fault[] };
      const bot = botOf(String(body.token ?? ''));
      if (!bot) {
        ctx.status = 404;
        ctx.body = { error: 'no such bot' };
        return;
      }
      this.faults.set(bot.id, [...(this.faults.get(bot.id) ?? []), ...(body.faults ?? [])]);
      ctx.body = { pending: this.faults.get(bot.id)!.length };
    });
    /** `?token=` one bot's messages, else every bot's; `since` (ms) for the newest only. */
    router.get('/_sandbox/botchat/sent', (ctx) => {
      const token = ctx.query.token === undefined ? undefined : String(ctx.query.token);
      const bot = token === undefined ? undefined : botOf(token);
      const since = Number(ctx.query.since ?? 0);
      ctx.body = { messages: this.sent.filter((m) => (!token || m.botId === bot?.id) && m.at >= since) };
    });
  }
}
