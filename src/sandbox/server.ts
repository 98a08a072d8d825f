import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { mountBotchat } from './botchat/platform.js';
import { attachQrNetwork, detachQrNetwork } from './qrchat/network.js';
import { mountQrchat } from './qrchat/platform.js';
import { mountChatappCloud } from './chatapp-cloud/platform.js';
import { mountSearchSuite } from './search-suite/platform.js';
import { mountSocialNetwork } from './social-network/platform.js';
import { mountSocialThreads } from './social-threads/platform.js';
import { mountShortVideoAds } from './short-video-ads/platform.js';
import { mountShortVideo } from './short-video/platform.js';

export interface Sandbox {
  /** Base URL; each platform lives under its own prefix (`/botchat`), the people's controls under `/_sandbox`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Local implementations of the platforms' protocols — the parts our adapters use — over real HTTP. The
 * service's adapters are pointed here when no real platform is configured; the tests use the same server.
 * It also plays the people on the platforms through its own `/_sandbox/...` endpoints (send a DM, revoke).
 */
export async function startSandbox(options: { port: number; host?: string }): Promise<Sandbox> {
  const app = new Koa();
  const router = new Router();
  app.use(koaBody({ jsonLimit: '10mb', formLimit: '10mb', multipart: true }));
  mountBotchat(router);
  const qrchat = mountQrchat(router);
  mountChatappCloud(router);
  mountSearchSuite(router);
  mountSocialNetwork(router);
  mountSocialThreads(router);
  mountShortVideo(router);
  mountShortVideoAds(router);
  app.use(router.routes());
  app.use(router.allowedMethods());
  const server: Server = app.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  // The qrchat sandbox driver of this process reaches the fake chat app servers by the sandbox's URL.
  attachQrNetwork(url, qrchat);
  return {
    url,
    close: async () => {
      detachQrNetwork(url);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
