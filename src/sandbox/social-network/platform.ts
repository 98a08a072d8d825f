import type Router from '@koa/router';
import { PublicUrls } from '../public-urls.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { AdObjects } from './ad-objects.js';
import { PageFeed } from './feed.js';
import { Graph } from './graph.js';
import type { SocialNetwork } from './part.js';
import { SOCIAL_NETWORK_PARTS } from './parts/index.js';
import { type SocialSnapshot, SocialState } from './state.js';

export * from './demo.js';

/** What the social network keeps across a restart: its people, pages, apps and tokens, and what each part keeps. */
type SocialNetworkState = { social: SocialSnapshot; strictUrls?: boolean } & Record<string, unknown>;

/**
 * The social network's Graph API (Facebook Pages and the Marketing API's ad accounts) under
 * `/social_network/graph/{version}/…`, its login dialog under `/social_network/www/…`: the parts our adapter
 * uses (parts/), with the Graph's error bodies and paging. Page webhooks go where the app's subscriptions say.
 */
export function mountSocialNetwork(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as SocialNetworkState | undefined;
  const state = new SocialState(restored?.social);
  const urls = new PublicUrls(restored?.strictUrls);
  urls.mount(router, 'social_network');
  const network: SocialNetwork = {
    state,
    graph: new Graph(state),
    feed: new PageFeed(state),
    ads: new AdObjects(state),
    urls,
    base: '/social_network/graph/:version',
  };
  const mounted = SOCIAL_NETWORK_PARTS.map((part) => ({ key: part.key, kept: part.mount(router, network, restored?.[part.key]) }));
  return {
    state: (): SocialNetworkState => ({
      social: state.snapshot(),
      strictUrls: urls.state(),
      ...Object.fromEntries(mounted.flatMap(({ key, kept }) => (kept ? [[key, kept.state()]] : []))),
    }),
  };
}
