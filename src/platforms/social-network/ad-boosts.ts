import { AdRefused } from '../capabilities/ad-campaigns.js';
import type { AdBoosts, PostPromotion } from '../capabilities/ad-boosts.js';
import type { AdapterAccount } from '../types.js';
import { classifyMarketingError, UNKNOWN_OBJECT } from './campaigns.js';
import type { SocialNetworkClient } from './client.js';

interface GraphPromotion {
  id: string;
  is_eligible_for_promotion?: boolean;
  /** Meta's word for where the post is as an ad (`ineligible`, `rejected`, `inactive`, `active`, …): the reason it gives. */
  promotion_status?: string;
}

/** What a page post says of its promotion (`GET /{post-id}?fields=is_eligible_for_promotion`), with the ad account's token. */
export class SocialNetworkAdBoosts implements AdBoosts {
  /** Every boost objective, billed by impressions. */
  readonly goals = {
    OUTCOME_AWARENESS: { optimizationGoal: 'REACH', billingEvent: 'IMPRESSIONS' },
    OUTCOME_TRAFFIC: { optimizationGoal: 'LINK_CLICKS', billingEvent: 'IMPRESSIONS' },
    OUTCOME_ENGAGEMENT: { optimizationGoal: 'POST_ENGAGEMENT', billingEvent: 'IMPRESSIONS' },
    OUTCOME_LEADS: { optimizationGoal: 'LEAD_GENERATION', billingEvent: 'IMPRESSIONS' },
  } as const;

  constructor(private readonly client: SocialNetworkClient) {}

  async promotion(account: AdapterAccount, platformPostId: string): Promise<PostPromotion> {
    let post: GraphPromotion;
    try {
      post = await this.client.call<GraphPromotion>(
        'GET',
        platformPostId,
        {
          token: account.credentials.accessToken,
          query: { fields: 'id,is_eligible_for_promotion,promotion_status' },
        },
        classifyMarketingError,
      );
    } catch (error) {
      if (error instanceof AdRefused && error.platformSubcode === UNKNOWN_OBJECT)
        return {
          promotable: false,
          reason: `The platform shows no post ${platformPostId}: it was deleted, or is not on a page you manage.`,
        };
      throw error;
    }
    if (post.is_eligible_for_promotion) return { promotable: true, promoted: { objectStoryId: platformPostId } };
    return {
      promotable: false,
      reason: `The platform will not promote the post ${platformPostId} (promotion_status ${post.promotion_status ?? 'ineligible'}).`,
    };
  }
}
