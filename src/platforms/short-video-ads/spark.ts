import type { AdBoosts, PostPromotion, SparkPost } from '../capabilities/ad-boosts.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import type { BusinessApiClient } from './client.js';

/**
 * Spark ads on the TikTok Business API v1.3. What is sure (the official SDK's `AdcreateCreatives` and
 * `IdentityApi`): an ad promotes a TikTok post by `tiktok_item_id` with the creator's `identity_type` and
 * `identity_id` (`identity_authorized_bc_id` for `BC_AUTH_TT`), and `identity/video/info` reads a post of an
 * identity. Best knowledge (the portal's pages, not in the SDK): the creator's code is read with `tt_video/info`
 * (`item_info`, `user_info`) and bound to the advertiser with `tt_video/authorize`; `tt_video/list` lists the
 * posts bound; `identity/video/info` answers the post's `auth_info.ad_auth_status`; a code refused is a 40002.
 */

interface TtVideo {
  item_info?: { item_id?: string | number };
  user_info?: { identity_id?: string; identity_type?: string; display_name?: string };
}
interface Identity {
  identity_id: string;
  identity_type: string;
  display_name?: string;
  identity_authorized_bc_id?: string;
}

/** Posts of `tt_video/list` per page, its most. */
const LIST_PAGE = 50;
/** The identities whose own posts may be Spark ads (a custom identity has no posts). */
const POSTING = new Set(['TT_USER', 'BC_AUTH_TT']);

const missing = (reason: string): PostPromotion => ({ promotable: false, reason, authorisationMissing: true });

/**
 * Whether a TikTok post can be a Spark ad of the advertiser, and as whom: bound with the creator's code (given now,
 * or before: `tt_video/list`), or a post of one of the advertiser's linked TikTok accounts with its ad
 * authorisation switched on. Boosts make no creative on TikTok: the ad names the post (`sparkAdBody`).
 */
export class ShortVideoAdsAdBoosts implements AdBoosts {
  /** A Spark post reaches people, is watched or brings followers; leads need an instant form, not a post. */
  readonly goals = {
    OUTCOME_AWARENESS: { optimizationGoal: 'REACH', billingEvent: 'IMPRESSIONS' },
    OUTCOME_TRAFFIC: { optimizationGoal: 'LINK_CLICKS', billingEvent: 'LINK_CLICKS' },
    OUTCOME_ENGAGEMENT: { optimizationGoal: 'PAGE_LIKES', billingEvent: 'IMPRESSIONS' },
  } as const;

  constructor(private readonly client: BusinessApiClient) {}

  async promotion(account: AdapterAccount, itemId: string, authCode?: string): Promise<PostPromotion> {
    if (authCode !== undefined) return this.authorise(account, itemId, authCode);
    const bound = await this.bound(account, itemId);
    if (bound) return { promotable: true, promoted: { sparkPost: bound } };
    for (const identity of await this.identities(account)) {
      const post = await this.postOf(account, identity, itemId);
      if (!post) continue;
      if (post.auth_info?.ad_auth_status !== 'AUTHORIZED')
        return missing(
          `The TikTok post ${itemId} of ${identity.display_name ?? identity.identity_id} is not authorised for ads: its creator switches "Ad authorization" on for it in the TikTok app.`,
        );
      return { promotable: true, promoted: { sparkPost: sparkPostOf(itemId, identity) } };
    }
    return missing(
      `The TikTok post ${itemId} is not authorised for the advertiser's ads: give sparkAuthCode, the code its creator generates for it in the TikTok app (Ad settings), or link the creator's TikTok account to the advertiser in TikTok Business Center.`,
    );
  }

  /** The creator's code read (`tt_video/info`) and, unless the post is bound already, bound to the advertiser. */
  private async authorise(account: AdapterAccount, itemId: string, authCode: string): Promise<PostPromotion> {
    let video: TtVideo;
    try {
      video = await this.get<TtVideo>(account, 'tt_video/info', { auth_code: authCode });
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'invalid_request')
        return missing(`TikTok did not take the sparkAuthCode: ${error.message}`);
      throw error;
    }
    const authorised = String(video.item_info?.item_id ?? '');
    if (authorised !== itemId) return missing(`The sparkAuthCode authorises the TikTok post ${authorised}, not ${itemId}.`);
    const bound = await this.bound(account, itemId);
    if (bound) return { promotable: true, promoted: { sparkPost: bound } };
    try {
      await this.client.call('/tt_video/authorize/', {
        method: 'POST',
        accessToken: account.credentials.accessToken,
        body: { advertiser_id: account.platformAccountId, auth_code: authCode },
      });
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'invalid_request')
        return missing(`TikTok refused to authorise the post with the sparkAuthCode: ${error.message}`);
      throw error;
    }
    return {
      promotable: true,
      promoted: { sparkPost: { itemId, identityType: 'AUTH_CODE', identityId: String(video.user_info?.identity_id ?? '') } },
    };
  }

  /** The post as the advertiser has it bound with a creator's code, if it is (`tt_video/list`, every page). */
  private async bound(account: AdapterAccount, itemId: string): Promise<SparkPost | null> {
    for (let page = 1; ; page++) {
      const data = await this.get<{ list?: TtVideo[]; page_info?: { total_page?: number } }>(account, 'tt_video/list', {
        page: String(page),
        page_size: String(LIST_PAGE),
      });
      const found = (data.list ?? []).find((video) => String(video.item_info?.item_id) === itemId);
      if (found) return { itemId, identityType: 'AUTH_CODE', identityId: String(found.user_info?.identity_id ?? '') };
      if (page >= (data.page_info?.total_page ?? 0)) return null;
    }
  }

  /** The advertiser's linked TikTok accounts (`identity/get`), whose own posts may be Spark ads. */
  private async identities(account: AdapterAccount): Promise<Identity[]> {
    const data = await this.get<{ identity_list?: Identity[] }>(account, 'identity/get', {});
    return (data.identity_list ?? []).filter((identity) => POSTING.has(identity.identity_type));
  }

  /** The identity's post `itemId` (`identity/video/info`), or null when it is not one of its posts. */
  private async postOf(account: AdapterAccount, identity: Identity, itemId: string) {
    try {
      const data = await this.get<{ video_detail?: { item_id?: string; auth_info?: { ad_auth_status?: string } } }>(
        account,
        'identity/video/info',
        {
          identity_type: identity.identity_type,
          identity_id: identity.identity_id,
          item_id: itemId,
          ...(identity.identity_authorized_bc_id ? { identity_authorized_bc_id: identity.identity_authorized_bc_id } : {}),
        },
      );
      return data.video_detail ?? null;
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'invalid_request') return null;
      throw error;
    }
  }

  private get<T>(account: AdapterAccount, path: string, query: Record<string, string>): Promise<T> {
    const params = new URLSearchParams({ advertiser_id: account.platformAccountId, ...query });
    return this.client.call<T>(`/${path}/?${params}`, { accessToken: account.credentials.accessToken });
  }
}

function sparkPostOf(itemId: string, identity: Identity): SparkPost {
  return {
    itemId,
    identityType: identity.identity_type as SparkPost['identityType'],
    identityId: identity.identity_id,
    ...(identity.identity_authorized_bc_id ? { authorizedBcId: identity.identity_authorized_bc_id } : {}),
  };
}

/**
 * What a Spark ad's creative shows: the post (its item id) as its creator; TikTok takes its video and caption from
 * the post, so no `video_id` or `ad_text` is sent.
 */
export function sparkCreative(itemId: string, post: SparkPost): Record<string, unknown> {
  return {
    tiktok_item_id: itemId,
    identity_type: post.identityType,
    identity_id: post.identityId,
    ...(post.authorizedBcId ? { identity_authorized_bc_id: post.authorizedBcId } : {}),
  };
}
