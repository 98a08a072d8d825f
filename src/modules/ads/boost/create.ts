import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import type { ApiError } from '../../../lib/errors.js';
import { idOf, newId } from '../../../lib/ids.js';
import type { BoostGoal, PromotedPost } from '../../../platforms/capabilities/ad-boosts.js';
import type { AdObjective } from '../../../platforms/capabilities/ad-campaigns.js';
import type { PlatformId } from '../../../platforms/types.js';
import type { Services } from '../../../services.js';
import { AccountNotConnectedError, PermissionMissingError } from '../../accounts/errors.js';
import { withConnectedAccount } from '../../accounts/platform-call.js';
import type { Principal } from '../../auth/principal.js';
import { findPost, targetsOf } from '../../publishing/read.js';
import { findAdAccount } from '../../accounts/read.js';
import { AdAccountDisabledError, AdPlatformRejectedError, PostNotBoostableError, SparkAuthorizationMissingError } from '../errors.js';
import { throwAdRefusal } from '../refusals.js';
import { type BoostError, type BoostPlan, type BoostRow, boostOfWrite, readBoost, recordBoost } from './records.js';

type AdBoostCreate = components['schemas']['AdBoostCreate'];

/** Where a boosted post of ours is published, by the ad account's platform. */
const POSTED_ON: Partial<Record<PlatformId, PlatformId>> = { social_network: 'social_network', short_video_ads: 'short_video' };
/** The scopes a boost needs granted, by the ad account's platform (TikTok's grants are permission groups it checks itself). */
/** A post's public id on the platform (`platformPostId` of the contract). */
const PUBLIC_POST_ID = /^[0-9]+(_[0-9]+)?$/;
const SCOPES: Partial<Record<PlatformId, readonly string[]>> = { social_network: ['ads_management'] };

const DAY_MS = 86_400_000;
/** How often a waiting request reads its boost. */
const WAIT_READ_MS = 150;
/** A boost in these is still moving: the worker has steps of it to make or undo. */
const MOVING: ReadonlyArray<BoostRow['status']> = ['creating', 'rolling_back'];

/**
 * The post a boost promotes: our post's published target on `platform` (the ad account's page posts, or TikTok
 * posts for a TikTok advertiser), or the platform's id as given.
 */
async function boostedPost(
  services: Services,
  principal: Principal,
  body: AdBoostCreate,
  platform: PlatformId,
): Promise<{ postId: string | null; platformPostId: string }> {
  if (!body.postId) return { postId: null, platformPostId: body.platformPostId! };
  const post = await findPost(services.db, principal, body.postId);
  const target = (await targetsOf(services.db, [post.id])).find((one) => one.platform === platform);
  if (!target) throw new PostNotBoostableError(`The post ${post.id} has no ${platform} target.`);
  if (target.status !== 'published' || !target.platformPostId)
    throw new PostNotBoostableError(`The post ${post.id} is not published on ${platform} (it is ${target.status}).`);
  // A TikTok post held for review has only its publish id until it is public.
  if (!PUBLIC_POST_ID.test(target.platformPostId))
    throw new PostNotBoostableError(`The post ${post.id} is not public on ${platform} yet (the platform is still reviewing it).`);
  return { postId: post.id, platformPostId: target.platformPostId };
}

/** What each step will send, decided now: the contract's defaults filled in, one name for all (the boost's id in it). */
function planOf(body: AdBoostCreate, name: string, promoted: PromotedPost, goal: BoostGoal, endTime: Date): BoostPlan {
  const status = body.status ?? 'ACTIVE';
  const objective: AdObjective = body.objective ?? 'OUTCOME_ENGAGEMENT';
  const specialAdCategories = body.specialAdCategories ?? [];
  return {
    campaign: {
      name,
      objective,
      status,
      specialAdCategories,
      specialAdCategoryCountries: specialAdCategories.length ? (body.targeting.geoLocations.countries ?? []) : [],
      isAdsetBudgetSharingEnabled: false,
    },
    adset: {
      name,
      status,
      dailyBudget: body.dailyBudget,
      lifetimeBudget: body.lifetimeBudget,
      ...goal,
      bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
      targeting: { ...body.targeting, ageMin: body.targeting.ageMin ?? 18, ageMax: body.targeting.ageMax ?? 65 },
      // Leads are collected on the post's page.
      ...(objective === 'OUTCOME_LEADS' && 'objectStoryId' in promoted
        ? { promotedObject: { pageId: promoted.objectStoryId.split('_')[0]! } }
        : {}),
      ...(body.startTime ? { startTime: body.startTime } : {}),
      endTime: endTime.toISOString(),
    },
    creative: { name, ...promoted },
    ad: { name, status },
  };
}

/**
 * `POST /ads/boost`: the ad account, then the post named (ours: 404/403 as reading it; published on the ad
 * account's platform, else 422), the platform asked whether it would promote it (422 `post_not_boostable` with its
 * reason; on TikTok 422 `spark_authorization_missing` when its creator has not authorised it for the advertiser,
 * after `sparkAuthCode` was tried), then the boost recorded with its four steps, once per write key: a retry finds
 * the boost the first recorded and asks nothing again. The worker makes the steps (./worker.ts); nothing is sent
 * to the platform here but the question (and, with `sparkAuthCode`, the post's authorisation for the advertiser).
 */
export async function recordBoostRequest(
  services: Services,
  principal: Principal,
  body: AdBoostCreate,
  writeKey: string,
): Promise<BoostRow> {
  const adAccountId = idOf('adacc', body.adAccountId);
  const earlier = await boostOfWrite(services.db, principal.ownerId, writeKey);
  if (earlier) return earlier;
  const adAccount = await findAdAccount(services.db, principal, adAccountId);
  return withConnectedAccount(
    services,
    principal,
    adAccount,
    'adBoosts',
    async (adapter, account, row) => {
      const { goals } = adapter.adBoosts;
      const goal = goals[body.objective ?? 'OUTCOME_ENGAGEMENT'];
      if (!goal)
        throw new AdPlatformRejectedError(`${row.platform} boosts optimise for ${Object.keys(goals).join(', ')} only.`, 'body/objective', {
          code: null,
          subcode: null,
        });
      if (body.sparkAuthCode !== undefined && row.platform !== 'short_video_ads')
        throw new AdPlatformRejectedError(`sparkAuthCode authorises TikTok posts; ${row.platform} posts need none.`, 'body/sparkAuthCode', {
          code: null,
          subcode: null,
        });
      const { postId, platformPostId } = await boostedPost(services, principal, body, POSTED_ON[row.platform]!);
      const promotion = await adapter.adBoosts.promotion(account, platformPostId, body.sparkAuthCode);
      if (!promotion.promotable)
        throw promotion.authorisationMissing
          ? new SparkAuthorizationMissingError(promotion.reason)
          : new PostNotBoostableError(promotion.reason);
      const id = newId('boost');
      const name = `${body.name ?? `Boost ${platformPostId}`} · ${id}`;
      const startTime = body.startTime ? new Date(body.startTime) : new Date();
      const endTime = new Date(startTime.getTime() + body.durationDays * DAY_MS);
      return recordBoost(services.db, {
        id,
        ownerId: row.ownerId,
        adAccountId: row.id,
        profileId: row.profileId,
        writeKey,
        postId,
        platformPostId,
        name,
        plan: planOf(body, name, promotion.promoted, goal, endTime),
        currency: row.currency,
        startTime,
        endTime,
      });
    },
    { scopes: SCOPES[adAccount.platform] ?? [], handle: throwAdRefusal },
  );
}

/** The boost once the worker has made or rolled it back, or as it is when `seconds` run out. */
export async function waitForBoost(db: Knex, boost: BoostRow, seconds: number): Promise<BoostRow> {
  const until = Date.now() + seconds * 1000;
  let current = boost;
  while (MOVING.includes(current.status) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_READ_MS, Math.max(0, until - Date.now()))));
    current = await readBoost(db, boost.id);
  }
  return current;
}

/** The problem a failed boost answers: the refusal of its step, as that step's own request would have had it. */
export function boostFailure(error: BoostError): ApiError {
  switch (error.code) {
    case 'account_not_connected':
      return new AccountNotConnectedError(error.detail);
    case 'permission_missing':
      return new PermissionMissingError(error.detail);
    case 'ad_account_disabled':
      return new AdAccountDisabledError(error.detail.replace(/ Fix it in the platform's ads manager\.$/, ''));
    default:
      return new AdPlatformRejectedError(`The platform refused the boost's ${error.step ?? 'step'}: ${error.detail}`, null, {
        code: error.platformCode ?? null,
        subcode: error.platformSubcode ?? null,
      });
  }
}
