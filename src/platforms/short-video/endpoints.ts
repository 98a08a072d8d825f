import type { Config } from '../../lib/config.js';
import { SANDBOX_APP } from '../../sandbox/short-video/demo.js';
import type { ShortVideoEndpoints } from './adapter.js';

/** The configured app at its (real or configured) hosts, or the sandbox's prefixes with the sandbox's own app. */
export function shortVideoEndpoints(config: Config, sandboxUrl: string | null): ShortVideoEndpoints {
  const app = config.oauthApps.shortVideo;
  if (app) return app;
  const base = `${sandboxUrl ?? 'http://sandbox.invalid'}/short_video`;
  return { ...SANDBOX_APP, authorizeUrl: `${base}/v2/auth/authorize/`, apiUrl: base };
}
