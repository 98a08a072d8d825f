import type { Config } from '../../lib/config.js';
import { SANDBOX_THREADS_APP } from '../../sandbox/social-threads/demo.js';
import type { SocialThreadsEndpoints } from './adapter.js';

/** The real hosts (configurable) with the instance's app, or the sandbox's prefixes with the sandbox's app. */
export function socialThreadsEndpoints(config: Config, sandboxUrl: string | null): SocialThreadsEndpoints {
  const app = config.oauthApps.socialThreads;
  const { apiUrl, authorizeUrl, version } = config.graphApis.socialThreads;
  if (app) return { appId: app.clientId, appSecret: app.clientSecret, apiUrl, version, authorizeUrl };
  const base = `${sandboxUrl ?? 'http://sandbox.invalid'}/social_threads`;
  return { appId: SANDBOX_THREADS_APP.id, appSecret: SANDBOX_THREADS_APP.secret, apiUrl: `${base}/graph`, version, authorizeUrl: `${base}/www/oauth/authorize` };
}
