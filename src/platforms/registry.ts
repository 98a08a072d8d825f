import type { Config } from '../lib/config.js';
import { BotchatAdapter } from './botchat/adapter.js';
import type { PlatformAdapter, PlatformId } from './types.js';

/** Every adapter, built once per process with its base URL: the real platform's, or the sandbox's. */
export class Platforms {
  readonly botchat: BotchatAdapter;
  private readonly byId: Map<PlatformId, PlatformAdapter>;

  constructor(config: Config, sandboxUrl: string | null) {
    const urlOf = (configured: string | undefined, sandboxPath: string): string => {
      if (configured) return configured.replace(/\/$/, '');
      if (!sandboxUrl) throw new Error(`no URL is configured for ${sandboxPath} and the sandbox is off`);
      return `${sandboxUrl}/${sandboxPath}`;
    };
    this.botchat = new BotchatAdapter(urlOf(config.platformUrls.botchat, 'botchat'), `${config.publicUrl}/webhooks/botchat`);
    this.byId = new Map<PlatformId, PlatformAdapter>([[this.botchat.id, this.botchat]]);
  }

  /** Whether any platform needs the sandbox (its URL is not configured). */
  static needSandbox(config: Config): boolean {
    return config.sandbox.mode === 'auto' && Object.values(config.platformUrls).some((url) => !url);
  }

  get(id: string): PlatformAdapter | undefined {
    return this.byId.get(id as PlatformId);
  }
}
