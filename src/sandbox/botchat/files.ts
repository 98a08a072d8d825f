import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Bot } from './platform.js';

interface StoredFile {
  botId: number;
  path: string;
  mimeType: string;
  bytes: string;
}

/** A small file of each kind people send, as its bytes (base64) and type. */
const SAMPLES: Record<string, { mimeType: string; bytes: string; name: string }> = {
  photo: { mimeType: 'image/jpeg', bytes: Buffer.from('sandbox-photo').toString('base64'), name: 'photos/file_1.jpg' },
  video: { mimeType: 'video/mp4', bytes: Buffer.from('sandbox-video').toString('base64'), name: 'videos/file_2.mp4' },
  voice: { mimeType: 'audio/ogg', bytes: Buffer.from('sandbox-voice').toString('base64'), name: 'voice/file_3.oga' },
  document: { mimeType: 'application/pdf', bytes: Buffer.from('%PDF-sandbox').toString('base64'), name: 'documents/menu.pdf' },
  sticker: { mimeType: 'image/webp', bytes: Buffer.from('sandbox-sticker').toString('base64'), name: 'stickers/file_5.webp' },
};

/**
 * Files people send to bots: each named by a `file_id`; `getFile` answers its `file_path`, and the bytes are at
 * `/file/bot<token>/<file_path>` — with the bot's token only, as on the platform.
 */
export class BotFiles {
  private readonly files: Map<string, StoredFile>;

  constructor(restored?: Map<string, StoredFile>) {
    this.files = restored ?? new Map();
  }

  state(): Map<string, StoredFile> {
    return this.files;
  }

  /** A person's file of `kind` for `bot`: the member a message carries it in. */
  add(bot: Bot, kind: string): Record<string, unknown> | null {
    const sample = SAMPLES[kind];
    if (!sample) return null;
    const fileId = `F${randomBytes(12).toString('base64url')}`;
    this.files.set(fileId, { botId: bot.id, path: sample.name, mimeType: sample.mimeType, bytes: sample.bytes });
    const size = Buffer.from(sample.bytes, 'base64').length;
    const file = { file_id: fileId, file_unique_id: fileId.slice(1, 9), file_size: size };
    if (kind === 'photo') return { photo: [{ ...file, width: 90, height: 90 }] };
    if (kind === 'document') return { document: { ...file, file_name: 'menu.pdf', mime_type: sample.mimeType } };
    return { [kind]: { ...file, mime_type: sample.mimeType } };
  }

  /** Whether a person sent `bot` a photo with this `file_id`. */
  isPhotoOf(bot: Bot, fileId: string): boolean {
    const file = this.files.get(fileId);
    return file?.botId === bot.id && file.path.startsWith('photos/');
  }

  getFile(ctx: RouterContext, bot: Bot, params: Record<string, unknown>): void {
    const file = this.files.get(String(params.file_id ?? ''));
    if (!file || file.botId !== bot.id) {
      ctx.status = 400;
      ctx.body = { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' };
      return;
    }
    ctx.body = { ok: true, result: { file_id: params.file_id, file_size: Buffer.from(file.bytes, 'base64').length, file_path: file.path } };
  }

  mount(router: Router, botOf: (token: string) => Bot | undefined): void {
    // Every file path is `<folder>/<name>`.
    router.get('/botchat/file/:bot/:folder/:name', (ctx) => {
      const bot = botOf(ctx.params.bot!.replace(/^bot/, ''));
      const file = bot && [...this.files.values()].find((f) => f.botId === bot.id && f.path === `${ctx.params.folder}/${ctx.params.name}`);
      if (!file) {
        ctx.status = 404;
        ctx.body = { ok: false, error_code: 404, description: 'Not Found' };
        return;
      }
      ctx.type = file.mimeType;
      ctx.body = Buffer.from(file.bytes, 'base64');
    });
  }
}
