import type Router from '@koa/router';
import { unreachableFromInternet } from '../lib/public-url.js';

/**
 * How a sandbox platform treats the URLs it is given to fetch from or call (media, webhooks). A real platform
 * reaches only the internet; the sandbox runs beside the service, so by default it also takes this machine's and
 * the local network's addresses, and applies the platform's own rules (HTTPS, ports) to the rest. Made strict
 * (`POST /_sandbox/<platform>/strict {strict: true}`), it refuses what the real platform could not reach, so a
 * deployment whose PUBLIC_URL only works locally fails here as it would there.
 */
export class PublicUrls {
  private strict: boolean;

  constructor(restored?: boolean) {
    this.strict = restored ?? false;
  }

  state(): boolean {
    return this.strict;
  }

  /**
   * `public`: on the internet, so the platform's own rules (HTTPS, ports) apply; `local`: this machine's or the
   * local network's, taken as it is; or why a strict platform refuses it, not being on the internet.
   */
  judge(url: string): 'public' | 'local' | { refused: string } {
    const unreachable = unreachableFromInternet(url, { https: false });
    if (!unreachable) return 'public';
    return this.strict ? { refused: unreachable } : 'local';
  }

  /**
   * Fetches `url` as the platform does: null where it may not (an address only this machine or its network
   * reaches, when strict) or cannot (not http(s), no answer).
   */
  async fetch(url: string, init: RequestInit = {}): Promise<Response | null> {
    if (!/^https?:\/\//.test(url) || typeof this.judge(url) === 'object') return null;
    return fetch(url, init).catch(() => null);
  }

  mount(router: Router, platform: string): void {
    router.post(`/_sandbox/${platform}/strict`, (ctx) => {
      const { strict } = (ctx.request.body ?? {}) as { strict?: unknown };
      if (typeof strict !== 'boolean') {
        ctx.status = 400;
        ctx.body = { error: 'strict must be true or false' };
        return;
      }
      this.strict = strict;
      ctx.body = { strict };
    });
  }
}
