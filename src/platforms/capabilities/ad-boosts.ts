import type { components } from '../../../generated/api.js';
import type { AdapterAccount } from '../types.js';

type Schemas = components['schemas'];
export type BoostObjective = NonNullable<Schemas['AdBoostCreate']['objective']>;

/**
 * A TikTok post authorised for an advertiser's ads (a Spark ad's post): its item id and the identity it shows as,
 * the creator's. `AUTH_CODE`: authorised with the creator's code (`tt_video/authorize`); `TT_USER`: the
 * advertiser's own linked TikTok account; `BC_AUTH_TT`: an account its Business Center may use
 * (`authorizedBcId` names the Business Center).
 */
export interface SparkPost {
  itemId: string;
  identityType: 'AUTH_CODE' | 'TT_USER' | 'BC_AUTH_TT';
  identityId: string;
  authorizedBcId?: string;
}

/** What a boost's ad promotes: a page post, through a creative (`objectStoryId`); or a Spark post, in the ad itself. */
export type PromotedPost = { objectStoryId: string } | { sparkPost: SparkPost };

/**
 * Whether the platform would promote a post in an ad, and its reason when it would not; `authorisationMissing`
 * when what is missing is the creator's authorisation of the post for the advertiser's ads (Spark ads).
 */
export type PostPromotion =
  { promotable: true; promoted: PromotedPost } | { promotable: false; reason: string; authorisationMissing?: true };

/** The ad set a boost's objective makes on the platform: its optimisation goal and how it is billed. */
export interface BoostGoal {
  optimizationGoal: Schemas['AdOptimizationGoal'];
  billingEvent: Schemas['AdBillingEvent'];
}

/**
 * Boosting posts: what a platform says of a post before its campaign, ad set, creative and ad are made (with the
 * tree's `adCampaigns` and, where the platform has creatives, `adCreatives`). On `social_network` a page post;
 * on `short_video_ads` a Spark ad: a TikTok post its creator authorised for the advertiser's ads, shown as the
 * creator (no creative object: the ad names the post).
 */
export interface AdBoosts {
  /** The ad set each objective a boost may have makes here; an objective absent cannot boost on this platform. */
  readonly goals: Partial<Record<BoostObjective, BoostGoal>>;
  /**
   * Whether the ad account's token may promote the post: on `social_network` the page post `{pageId}_{postId}`
   * (published, visible, of a page the token's person manages, of a kind the platform promotes); on
   * `short_video_ads` the TikTok post (its item id), authorised for the advertiser's ads, with `authCode` (the
   * creator's code for it) first authorising it for the advertiser. A post the platform does not show the token,
   * or not authorised, is not promotable (its reason says so), never a failure.
   */
  promotion(account: AdapterAccount, platformPostId: string, authCode?: string): Promise<PostPromotion>;
}
