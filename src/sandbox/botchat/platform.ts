import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { PublicUrls } from '../public-urls.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { BotBlocks } from './blocks.js';
import { BotFiles } from './files.js';
import { BotOutbox, type OutboxState } from './outbox.js';

/**
 * The bot API of a messenger (Telegram's Bot API): `POST /bot<token>/<method>`, answers `{ok, result}` or
 * `{ok: false, error_code, description}`, webhooks sent with `X-Telegram-Bot-Api-Secret-Token`.
 */
export interface Bot {
  id: number;
  token: string;
  firstName: string;
  username: string;
  revoked: boolean;
  webhook: { url: string; secret: string | undefined; allowedUpdates?: string[]; maxConnections?: number } | null;
}

/** A bot every new sandbox has, so a first connection needs no set-up. */
export const DEMO_BOT_TOKEN = '1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa';

/** What the platform keeps across a restart: its bots (tokens, webhooks), what they sent, and the ids given so far. */
interface BotchatState {
  bots: Map<string, Bot>;
  nextUpdateId: number;
  nextMessageId: number;
  outbox: OutboxState;
  blocked?: string[];
  files?: ReturnType<BotFiles['state']>;
  strictUrls?: boolean;
}

/** The ports Telegram calls a webhook on. */
const WEBHOOK_PORTS = ['443', '80', '88', '8443'];

/** A list parameter, given as JSON (a form's field) or as the list itself (a JSON body). */
function listOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Why Telegram refuses a webhook at `url`, in its words, or null. */
function webhookRefusal(url: string, urls: PublicUrls): string | null {
  if (!/^https?:\/\//.test(url)) return 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook';
  const judged = urls.judge(url);
  if (typeof judged === 'object') return `Bad Request: bad webhook: ${judged.refused}`;
  if (judged === 'local') return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook';
  if (!WEBHOOK_PORTS.includes(parsed.port || '443'))
    return 'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443';
  return null;
}

export function mountBotchat(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as BotchatState | undefined;
  const bots = restored?.bots ?? new Map<string, Bot>();
  let nextUpdateId = restored?.nextUpdateId ?? 1;
  let nextMessageId = restored?.nextMessageId ?? 1;
  const addBot = (token: string, firstName: string, username: string): Bot => {
    const bot: Bot = { id: Number(token.split(':')[0]), token, firstName, username, revoked: false, webhook: null };
    bots.set(token, bot);
    return bot;
  };
  if (!restored) addBot(DEMO_BOT_TOKEN, 'Sandbox Demo Bot', 'sandbox_demo_bot');
  const files = new BotFiles(restored?.files);
  files.mount(router, (token) => bots.get(token));
  const blocks = new BotBlocks(restored?.blocked);
  blocks.mount(router, (token) => bots.get(token));
  const urls = new PublicUrls(restored?.strictUrls);
  urls.mount(router, 'botchat');
  const outbox = new BotOutbox(() => nextMessageId++, restored?.outbox, {
    refusal: (bot, chatId) => blocks.refusal(bot, chatId),
    personsPhoto: (bot, fileId) => files.isPhotoOf(bot, fileId),
    urls,
  });
  outbox.mount(router, (token) => bots.get(token));

  const fail = (ctx: RouterContext, code: number, description: string, extra: Record<string, unknown> = {}) => {
    ctx.status = code;
    ctx.body = { ok: false, error_code: code, description, ...extra };
  };

  router.all('/botchat/:bot/:method', (ctx) => {
    const token = ctx.params.bot!.startsWith('bot') ? ctx.params.bot!.slice(3) : '';
    const bot = bots.get(token);
    if (!bot || bot.revoked) return fail(ctx, 401, 'Unauthorized');
    const params = { ...(ctx.query as Record<string, unknown>), ...((ctx.request.body as Record<string, unknown>) ?? {}) };
    switch (ctx.params.method) {
      case 'getMe':
        ctx.body = {
          ok: true,
          result: { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username, can_join_groups: true },
        };
        return;
      case 'setWebhook': {
        const url = String(params.url ?? '');
        const secret = params.secret_token === undefined ? undefined : String(params.secret_token);
        const refused = webhookRefusal(url, urls);
        if (refused) return fail(ctx, 400, refused);
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return fail(ctx, 400, 'Bad Request: secret token contains unallowed characters');
        const allowed = listOf(params.allowed_updates);
        const maxConnections = params.max_connections === undefined ? 40 : Number(params.max_connections);
        if (!Number.isInteger(maxConnections) || maxConnections < 1 || maxConnections > 100)
          return fail(ctx, 400, 'Bad Request: bad webhook: max_connections must be between 1 and 100');
        bot.webhook = {
          url,
          secret,
          ...(Array.isArray(allowed) && allowed.length > 0 ? { allowedUpdates: allowed.map(String) } : {}),
          maxConnections,
        };
        ctx.body = { ok: true, result: true, description: 'Webhook was set' };
        return;
      }
      case 'deleteWebhook':
        bot.webhook = null;
        ctx.body = { ok: true, result: true, description: 'Webhook was deleted' };
        return;
      case 'getWebhookInfo':
        ctx.body = {
          ok: true,
          result: {
            url: bot.webhook?.url ?? '',
            has_custom_certificate: false,
            pending_update_count: 0,
            ...(bot.webhook
              ? {
                  max_connections: bot.webhook.maxConnections ?? 40,
                  ...(bot.webhook.allowedUpdates ? { allowed_updates: bot.webhook.allowedUpdates } : {}),
                }
              : {}),
          },
        };
        return;
      // The sandbox sends people's messages to webhooks only: without one there is nothing to get.
      case 'getUpdates':
        if (bot.webhook)
          return fail(
            ctx,
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          );
        ctx.body = { ok: true, result: [] };
        return;
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendVideo':
      case 'sendAudio':
      case 'sendDocument':
      case 'sendAnimation':
      case 'sendMediaGroup':
        return outbox.send(ctx, bot, ctx.params.method, params, (ctx.request as { files?: Record<string, unknown> }).files);
      case 'getFile':
        return files.getFile(ctx, bot, params);
      case 'editMessageText':
      case 'editMessageCaption':
        return outbox.edit(ctx, bot, ctx.params.method, params);
      case 'deleteMessage':
        return outbox.delete(ctx, bot, params);
      default:
        return fail(ctx, 404, 'Not Found');
    }
  });

  // The people on the platform.
  router.post('/_sandbox/botchat/bots', (ctx) => {
    const body = (ctx.request.body ?? {}) as { firstName?: string; username?: string };
    const id = 2_000_000_000 + bots.size;
    const bot = addBot(
      `${id}:${randomBytes(24).toString('base64url')}`,
      body.firstName ?? 'Sandbox Bot',
      body.username ?? `sandbox_${id}_bot`,
    );
    ctx.status = 201;
    ctx.body = { token: bot.token, id: bot.id, username: bot.username };
  });

  /** A person writes to the bot: the sandbox sends the update to the bot's webhook, as the platform does. */
  router.post('/_sandbox/botchat/messages', async (ctx) => {
    const body = (ctx.request.body ?? {}) as {
      token?: string;
      text?: string;
      /** A file of this kind instead of a text (`photo`, `video`, `voice`, `document`, `sticker`), with `text` as its caption. */
      media?: string;
      location?: { latitude: number; longitude: number };
      from?: { id?: number; firstName?: string; username?: string };
    };
    const bot = body.token ? bots.get(body.token) : undefined;
    if (!bot) return fail(ctx, 404, 'no such bot');
    if (!bot.webhook) return fail(ctx, 409, 'the bot has no webhook');
    const from = {
      id: body.from?.id ?? 555000111,
      is_bot: false,
      first_name: body.from?.firstName ?? 'Sam',
      username: body.from?.username ?? 'sam_sandbox',
    };
    const update = {
      update_id: nextUpdateId++,
      message: {
        message_id: nextMessageId++,
        from,
        chat: { id: from.id, type: 'private', first_name: from.first_name },
        date: Math.floor(Date.now() / 1000),
        ...(body.media
          ? { ...files.add(bot, body.media), ...(body.text ? { caption: body.text } : {}) }
          : body.location
            ? { location: body.location }
            : { text: body.text ?? 'Hello!' }),
      },
    };
    // The service keeps this update's ids before the request ends: they are never given again, even after a crash.
    stored.saveNow();
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (bot.webhook.secret) headers['X-Telegram-Bot-Api-Secret-Token'] = bot.webhook.secret;
    const response = await fetch(bot.webhook.url, { method: 'POST', headers, body: JSON.stringify(update) });
    ctx.body = { update, webhookStatus: response.status };
  });

  /** The bot's owner revokes its token at the platform: every later call with it is 401. */
  router.post('/_sandbox/botchat/revoke', (ctx) => {
    const bot = bots.get(String((ctx.request.body as { token?: string } | undefined)?.token ?? ''));
    if (!bot) return fail(ctx, 404, 'no such bot');
    bot.revoked = true;
    ctx.body = { revoked: true };
  });

  return {
    state: (): BotchatState => ({
      bots,
      nextUpdateId,
      nextMessageId,
      outbox: outbox.state(),
      blocked: blocks.state(),
      files: files.state(),
      strictUrls: urls.state(),
    }),
  };
}
