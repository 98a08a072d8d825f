import type Router from '@koa/router';
import type { Bot } from './platform.js';

/**
 * The people who blocked a bot. The bot API then refuses every message to them with 403 `Forbidden: bot was
 * blocked by the user` (and says so with a `my_chat_member` update, which this sandbox leaves out).
 */
export class BotBlocks {
  private readonly blocked: Set<string>;

  constructor(restored?: string[]) {
    this.blocked = new Set(restored ?? []);
  }

  state(): string[] {
    return [...this.blocked];
  }

  refusal(bot: Bot, chatId: number): string | null {
    return this.blocked.has(`${bot.id}:${chatId}`) ? 'Forbidden: bot was blocked by the user' : null;
  }

  /** A person blocks (or, with `blocked: false`, unblocks) the bot. */
  mount(router: Router, botOf: (token: string) => Bot | undefined): void {
    router.post('/_sandbox/botchat/blocks', (ctx) => {
      const body = (ctx.request.body ?? {}) as { token?: string; userId?: number; blocked?: boolean };
      const bot = botOf(String(body.token ?? ''));
      if (!bot || typeof body.userId !== 'number') {
        ctx.status = 404;
        ctx.body = { error: 'no such bot, or no userId' };
        return;
      }
      const key = `${bot.id}:${body.userId}`;
      if (body.blocked === false) this.blocked.delete(key);
      else this.blocked.add(key);
      ctx.body = { blocked: this.blocked.has(key) };
    });
  }
}
