import type { AdapterAccount } from '../types.js';

/** Whether the platform would promote a post in an ad, and its reason when it would not. */
export type PostPromotion = { promotable: true } | { promotable: false; reason: string };

/**
 * Boosting posts: what a platform says of a post before its campaign, ad set, creative and ad are made (with the
 * tree's `adCampaigns` and `adCreatives`). `social_network` only: a TikTok boost is a Spark ad, which needs the
 * post's creator to authorise it.
 */
export interface AdBoosts {
  /**
   * Whether the ad account's token may promote the page post `{pageId}_{postId}`: published, visible, of a page
   * the token's person manages, of a kind the platform promotes. A post the platform does not show the token is
   * not promotable (its reason says so), never a failure.
   */
  promotion(account: AdapterAccount, platformPostId: string): Promise<PostPromotion>;
}
