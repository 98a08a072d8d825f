import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import type { ApiError } from '../../../lib/errors.js';
import { idOf, newId } from '../../../lib/ids.js';
import type { AdObjective } from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import { AccountNotConnectedError, PermissionMissingError } from '../../accounts/errors.js';
import { withConnectedAccount } from '../../accounts/platform-call.js';
import type { Principal } from '../../auth/principal.js';
import { findPost, targetsOf } from '../../publishing/read.js';
import { AdAccountDisabledError, AdPlatformRejectedError, PostNotBoostableError } from '../errors.js';
import { throwAdRefusal } from '../refusals.js';
import { type BoostError, type BoostPlan, type BoostRow, boostOfWrite, readBoost, recordBoost } from './records.js';

type AdBoostCreate = components['schemas']['AdBoostCreate'];

/** The ad set's optimisation goal of each objective a boost may have. */
const GOAL: Record<NonNullable<AdBoostCreate['objective']>, components['schemas']['AdOptimizationGoal']> = {
  OUTCOME_AWARENESS: 'REACH',
  OUTCOME_TRAFFIC: 'LINK_CLICKS',
  OUTCOME_ENGAGEMENT: 'POST_ENGAGEMENT',
  OUTCOME_LEADS: 'LEAD_GENERATION',
};

const DAY_MS = 86_400_000;
/** How often a waiting request reads its boost. */
const WAIT_READ_MS = 150;
/** A boost in these is still moving: the worker has steps of it to make or undo. */
const MOVING: ReadonlyArray<BoostRow['status']> = ['creating', 'rolling_back'];

/** The page post a boost promotes: our post's published `social_network` target, or the platform's id as given. */
async function boostedPost(
  services: Services,
  principal: Principal,
  body: AdBoostCreate,
): Promise<{ postId: string | null; platformPostId: string }> {
  if (!body.postId) return { postId: null, platformPostId: body.platformPostId! };
  const post = await findPost(services.db, principal, body.postId);
  const target = (await targetsOf(services.db, [post.id])).find((one) => one.platform === 'social_network');
  if (!target) throw new PostNotBoostableError(`The post ${post.id} has no social_network target.`);
  if (target.status !== 'published' || !target.platformPostId)
    throw new PostNotBoostableError(`The post ${post.id} is not published on social_network (it is ${target.status}).`);
  return { postId: post.id, platformPostId: target.platformPostId };
}

/** What each step will send, decided now: the contract's defaults filled in, one name for all (the boost's id in it). */
function planOf(body: AdBoostCreate, name: string, platformPostId: string, endTime: Date): BoostPlan {
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
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: GOAL[body.objective ?? 'OUTCOME_ENGAGEMENT'],
      bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
      targeting: { ...body.targeting, ageMin: body.targeting.ageMin ?? 18, ageMax: body.targeting.ageMax ?? 65 },
      // Leads are collected on the post's page.
      ...(objective === 'OUTCOME_LEADS' ? { promotedObject: { pageId: platformPostId.split('_')[0]! } } : {}),
      ...(body.startTime ? { startTime: body.startTime } : {}),
      endTime: endTime.toISOString(),
    },
    creative: { name, objectStoryId: platformPostId },
    ad: { name, status },
  };
}

/**
 * `POST /ads/boost`: the ad account, then the post named (ours: 404/403 as reading it; published on social_network, else 422), the
 * platform asked whether it would promote it (422 `post_not_boostable` with its reason), then the boost recorded
 * with its four steps, once per write key: a retry finds the boost the first recorded and asks nothing again. The
 * worker makes the steps (./worker.ts); nothing is sent to the platform here but the question.
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
  return withConnectedAccount(
    services,
    principal,
    { adAccountId },
    'adBoosts',
    async (adapter, account, row) => {
      const { postId, platformPostId } = await boostedPost(services, principal, body);
      const promotion = await adapter.adBoosts.promotion(account, platformPostId);
      if (!promotion.promotable) throw new PostNotBoostableError(promotion.reason);
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
        plan: planOf(body, name, platformPostId, endTime),
        currency: row.currency,
        startTime,
        endTime,
      });
    },
    {
      unsupported: (platform) =>
        `${platform} ad accounts cannot boost a post here: a boost on ${platform} is a Spark ad, which needs the post's creator to authorise it.`,
      scopes: ['ads_management'],
      handle: throwAdRefusal,
    },
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
