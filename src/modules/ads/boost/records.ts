import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import { NotFoundError } from '../../../lib/errors.js';
import { type AdAccountId, idOf } from '../../../lib/ids.js';
import { decodeKeyset, keysetPage } from '../../../lib/pagination.js';
import type { PromotedPost } from '../../../platforms/capabilities/ad-boosts.js';
import type { AdCampaignInput, AdInput, AdSetInput } from '../../../platforms/capabilities/ad-campaigns.js';
import { findAdAccount } from '../../accounts/read.js';
import { assertProfileInScope, listedProfiles, type Principal } from '../../auth/principal.js';

type Schemas = components['schemas'];
export type AdBoost = Schemas['AdBoost'];
export type BoostStatus = Schemas['AdBoostStatus'];
export type BoostError = Schemas['AdBoostError'];
export type StepName = Schemas['AdBoostStep']['step'];
export type StepState = Schemas['AdBoostStep']['state'];

/** A boost's steps in the order they are made; a rollback deletes them in reverse. */
export const STEPS: readonly StepName[] = ['campaign', 'adset', 'creative', 'ad'];

/** The boost's wake-up channel: a boost recorded, or a step of one recorded, wakes the worker at once. */
export const BOOSTS_CHANNEL = 'ad_boosts';

/**
 * What each step sends, decided once when the boost is recorded (so a step resumed after a restart sends what the
 * first attempt did); the parents' ids are the steps' made before it.
 */
export interface BoostPlan {
  campaign: AdCampaignInput;
  adset: Omit<AdSetInput, 'campaignId'>;
  /** A page post's creative (`social_network`); a Spark post, which the ad names itself (`short_video_ads`). */
  creative: { name: string } & PromotedPost;
  ad: Omit<AdInput, 'adsetId' | 'creativeId'>;
}

export interface BoostRow {
  id: string;
  ownerId: string;
  adAccountId: AdAccountId;
  profileId: string;
  writeKey: string;
  postId: string | null;
  platformPostId: string;
  name: string;
  status: BoostStatus;
  plan: BoostPlan;
  currency: string;
  startTime: Date;
  endTime: Date;
  error: BoostError | null;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StepRow {
  boostId: string;
  step: StepName;
  position: number;
  state: StepState;
  platformId: string | null;
  sentAt: Date | null;
  doneAt: Date | null;
  deletedAt: Date | null;
}

export type NewBoost = Pick<
  BoostRow,
  | 'id'
  | 'ownerId'
  | 'adAccountId'
  | 'profileId'
  | 'writeKey'
  | 'postId'
  | 'platformPostId'
  | 'name'
  | 'plan'
  | 'currency'
  | 'startTime'
  | 'endTime'
>;

/**
 * Records a boost and its four steps, all pending, once per write key (a retry of the request finds the boost the
 * first recorded), and wakes the worker when it commits. Nothing has been sent yet.
 */
export async function recordBoost(db: Knex, boost: NewBoost): Promise<BoostRow> {
  return db.transaction(async (trx) => {
    const [inserted] = (await trx('adBoosts')
      .insert({ ...boost, plan: JSON.stringify(boost.plan), status: 'creating' })
      .onConflict(['ownerId', 'writeKey'])
      .ignore()
      .returning('*')) as BoostRow[];
    if (!inserted) return (await boostOfWrite(trx, boost.ownerId, boost.writeKey))!;
    await trx('adBoostSteps').insert(STEPS.map((step, position) => ({ boostId: inserted.id, step, position, state: 'pending' })));
    await trx.raw(`NOTIFY ${BOOSTS_CHANNEL}`);
    return inserted;
  });
}

/** The boost a request's write key recorded, if any. */
export async function boostOfWrite(db: Knex, ownerId: string, writeKey: string): Promise<BoostRow | undefined> {
  return (await db('adBoosts').where({ ownerId, writeKey }).first()) as BoostRow | undefined;
}

export async function stepsOf(db: Knex, boostId: string): Promise<StepRow[]> {
  return (await db('adBoostSteps').where({ boostId }).orderBy('position')) as StepRow[];
}

/** The owner's boost, or 404; 403 when its ad account's profile is outside the key's. */
export async function findBoost(db: Knex, principal: Principal, id: string): Promise<BoostRow> {
  const row = (await db('adBoosts').where({ id, ownerId: principal.ownerId }).first()) as BoostRow | undefined;
  if (!row) throw new NotFoundError('boost');
  assertProfileInScope(principal, row.profileId);
  return row;
}

export async function readBoost(db: Knex, id: string): Promise<BoostRow> {
  return (await db('adBoosts').where({ id }).first()) as BoostRow;
}

/** The ad platform of a boost: a Spark post's is TikTok's. */
export const platformOf = (boost: Pick<BoostRow, 'plan'>) => ('sparkPost' in boost.plan.creative ? 'short_video_ads' : 'social_network');

export function presentBoost(row: BoostRow, steps: StepRow[]): AdBoost {
  const made = (step: StepName) => {
    const one = steps.find((s) => s.step === step);
    return one?.state === 'done' ? one.platformId : null;
  };
  return {
    id: row.id,
    adAccountId: row.adAccountId,
    platform: platformOf(row),
    postId: row.postId,
    platformPostId: row.platformPostId,
    name: row.name,
    status: row.status,
    steps: steps.map(({ step, state, platformId }) => ({ step, state, platformId })),
    campaignId: made('campaign'),
    adsetId: made('adset'),
    creativeId: made('creative'),
    adId: made('ad'),
    dailyBudget: row.plan.adset.dailyBudget ?? null,
    lifetimeBudget: row.plan.adset.lifetimeBudget ?? null,
    currency: row.currency,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function presentedBoost(db: Knex, row: BoostRow): Promise<AdBoost> {
  return presentBoost(row, await stepsOf(db, row.id));
}

/** The caller's boosts, newest first, keyset-paginated on (createdAt, id); filters combine with AND. */
export async function listBoosts(
  db: Knex,
  principal: Principal,
  query: { adAccountId?: string; status?: BoostStatus; limit?: number; cursor?: string },
): Promise<{ data: AdBoost[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  const after = decodeKeyset(query.cursor, ['time', 'id']);
  const rows = db('adBoosts')
    .where({ ownerId: principal.ownerId })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit + 1);
  const profiles = await listedProfiles(db, principal, undefined);
  if (profiles) rows.whereIn('profileId', profiles);
  // The ad account filtered by is one the caller may read (404, 403).
  if (query.adAccountId) rows.where({ adAccountId: (await findAdAccount(db, principal, idOf('adacc', query.adAccountId))).id });
  if (query.status) rows.where({ status: query.status });
  if (after) rows.whereRaw('(created_at, id) < (?::timestamptz, ?)', after);
  const page = keysetPage((await rows) as BoostRow[], limit, (row) => [row.createdAt.toISOString(), row.id]);
  const steps = page.rows.length
    ? ((await db('adBoostSteps')
        .whereIn(
          'boostId',
          page.rows.map((row) => row.id),
        )
        .orderBy('position')) as StepRow[])
    : [];
  return {
    data: page.rows.map((row) =>
      presentBoost(
        row,
        steps.filter((step) => step.boostId === row.id),
      ),
    ),
    nextCursor: page.nextCursor,
  };
}
