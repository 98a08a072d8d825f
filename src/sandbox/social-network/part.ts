import type Router from '@koa/router';
import type { AdObjects } from './ad-objects.js';
import type { PublicUrls } from '../public-urls.js';
import type { PageFeed } from './feed.js';
import type { Graph } from './graph.js';
import type { SocialState } from './state.js';

/** What every part of the social network works on. */
export interface SocialNetwork {
  /** Its people, apps, pages, ad accounts and tokens. */
  readonly state: SocialState;
  /** The Graph's ways of answering: tokens checked, errors, field picking, paging. */
  readonly graph: Graph;
  /** The pages' posts, photos and videos, kept by the `posts` part and read by the parts that act on them. */
  readonly feed: PageFeed;
  /** The ad accounts' campaigns, ad sets, ads and creatives, kept by the `marketing` part and moved by the review controls. */
  readonly ads: AdObjects;
  /** The URLs the Graph fetches media from (strict: only the internet's, as the real one). */
  readonly urls: PublicUrls;
  /** Where the Graph's routes live: `/social_network/graph/:version`. */
  readonly base: string;
}

/**
 * One part of the social network (the Graph's core, pages, Messenger, insights, …): it adds its Graph routes and
 * its people's controls (under `/_sandbox/social_network`), starting from what it kept before a restart, and says
 * what it keeps now, if anything. `key` names what it keeps in the platform's state.
 */
export interface SocialPart<Kept = never> {
  readonly key: string;
  mount(router: Router, network: SocialNetwork, restored: Kept | undefined): { state(): Kept } | void;
}

export function defineSocialPart<Kept = never>(part: SocialPart<Kept>): SocialPart<Kept> {
  return part;
}
