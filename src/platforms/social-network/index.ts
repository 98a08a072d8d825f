import { definePlatform } from '../platform-module.js';
import { SocialNetworkAdapter } from './adapter.js';
import { socialNetworkSettings } from './settings.js';

export const socialNetwork = definePlatform({
  ids: ['social_network'],
  settings: socialNetworkSettings,
  create: (settings, deps) => [
    new SocialNetworkAdapter({
      appId: settings.appId,
      appSecret: settings.appSecret,
      verifyToken: settings.verifyToken,
      graphUrl: `${settings.graphHost}/${settings.version}`,
      apiVersion: settings.version,
      dialogUrl: `${settings.dialogHost}/${settings.version}/dialog/oauth`,
      webhookUrl: `${deps.publicUrl}/webhooks/social_network`,
    }),
  ],
});
