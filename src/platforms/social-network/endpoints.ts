import type { Config } from '../../lib/config.js';
import { SANDBOX_APP } from '../../sandbox/social-network/demo.js';
import type { SocialNetworkEndpoints } from './adapter.js';

/**
 * The real hosts (configurable, with the configured API version) with the instance's app, or the sandbox's
 * prefixes with the sandbox's app: a real host is never called with the sandbox's app, nor the other way round.
 */
export function socialNetworkEndpoints(config: Config, sandboxUrl: string | null): SocialNetworkEndpoints {
  const app = config.oauthApps.socialNetwork;
  const { apiUrl, dialogUrl, version } = config.graphApis.socialNetwork;
  const webhookUrl = `${config.publicUrl}/webhooks/social_network`;
  if (app) {
    return { appId: app.clientId, appSecret: app.clientSecret, verifyToken: app.verifyToken, graphUrl: `${apiUrl}/${version}`, dialogUrl: `${dialogUrl}/${version}/dialog/oauth`, webhookUrl };
  }
  const base = `${sandboxUrl ?? 'http://sandbox.invalid'}/social_network`;
  return { appId: SANDBOX_APP.id, appSecret: SANDBOX_APP.secret, verifyToken: undefined, graphUrl: `${base}/graph/${version}`, dialogUrl: `${base}/www/${version}/dialog/oauth`, webhookUrl };
}
