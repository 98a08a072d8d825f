import type { components } from '../../../generated/api.js';
import { PlatformError } from '../errors.js';
import type { SparkPost } from './ad-boosts.js';
import type { AdapterAccount } from '../types.js';

type Schemas = components['schemas'];
export type AdLevel = Schemas['AdObjectLevel'];
export type AdStatus = Schemas['AdStatus'];
export type AdEffectiveStatus = Schemas['AdEffectiveStatus'];
export type AdObjective = Schemas['AdObjective'];
export type AdTargeting = Schemas['AdTargeting'];
export type AdPromotedObject = Schemas['AdPromotedObject'];
export type AdObjectIssue = Schemas['AdObjectIssue'];

/**
 * A connected ad account as the campaign tree acts on it: its platform id and opened token, and its currency, in
 * whose minor units every amount in and out is (see src/lib/money.ts for platforms that speak decimals).
 */
export interface AdsAccount extends AdapterAccount {
  currency: string;
}

/**
 * What every object of the tree has. `status` and `effectiveStatus` are normalised to the contract's words;
 * `platformStatus` is what the platform said, untouched (Meta's `effective_status`, TikTok's `secondary_status`),
 * so nothing it says is lost. Times are ISO 8601 in UTC.
 */
interface AdObjectCommon {
  id: string;
  name: string;
  status: AdStatus;
  effectiveStatus: AdEffectiveStatus;
  platformStatus: string;
  /** The platform's display name of the review status ("Pending review"), where it gives one. */
  statusName: string | null;
  issues: AdObjectIssue[];
  createdAt: string;
  updatedAt: string;
}

/** Amounts are integers of the account currency's minor units. */
export interface AdCampaignObject extends AdObjectCommon {
  level: 'campaign';
  objective: AdObjective;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  currency: string;
  bidStrategy: Schemas['AdBidStrategy'] | null;
  specialAdCategories: Array<Schemas['AdSpecialAdCategory']>;
  /** ISO 3166 countries the special ad categories are declared for. */
  specialAdCategoryCountries: string[];
  /** Whether ad sets may share up to 20 % of their budgets (only without a campaign budget); null with one. */
  isAdsetBudgetSharingEnabled: boolean | null;
  startTime: string | null;
  stopTime: string | null;
}

export interface AdSetObject extends AdObjectCommon {
  level: 'adset';
  campaignId: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  currency: string;
  billingEvent: Schemas['AdBillingEvent'];
  optimizationGoal: Schemas['AdOptimizationGoal'];
  bidStrategy: Schemas['AdBidStrategy'] | null;
  bidAmount: number | null;
  /** With `advantageAudience` as the platform has it. */
  targeting: AdTargeting;
  promotedObject: AdPromotedObject;
  /** The EU Digital Services Act's beneficiary and payer, for ad sets reaching the EU; null elsewhere. */
  dsaBeneficiary: string | null;
  dsaPayor: string | null;
  startTime: string;
  endTime: string | null;
}

export interface AdAdObject extends AdObjectCommon {
  level: 'ad';
  campaignId: string;
  adsetId: string;
  creativeId: string;
  urlTags: string | null;
  previewUrl: string | null;
}

export type AdTreeObject = AdCampaignObject | AdSetObject | AdAdObject;
export type AdObjectOf<L extends AdLevel> = Extract<AdTreeObject, { level: L }>;

/** A new campaign; amounts in minor units. One budget level: a campaign budget, or none and budgets per ad set. */
export interface AdCampaignInput {
  name: string;
  objective: AdObjective;
  status: 'ACTIVE' | 'PAUSED';
  specialAdCategories: Array<Schemas['AdSpecialAdCategory']>;
  specialAdCategoryCountries: string[];
  dailyBudget?: number;
  lifetimeBudget?: number;
  bidStrategy?: Schemas['AdBidStrategy'];
  /** Without a campaign budget the Marketing API (v23+) wants it said either way; ignored with one. */
  isAdsetBudgetSharingEnabled: boolean;
  startTime?: string;
  stopTime?: string;
}

export interface AdSetInput {
  campaignId: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  dailyBudget?: number;
  lifetimeBudget?: number;
  billingEvent: Schemas['AdBillingEvent'];
  optimizationGoal: Schemas['AdOptimizationGoal'];
  bidStrategy?: Schemas['AdBidStrategy'];
  bidAmount?: number;
  /** `advantageAudience` absent: the adapter decides it as the rules say (off whenever targeting is narrowed). */
  targeting: AdTargeting;
  /** `productSetId` here is the platform's own product set id (the caller's `pset_…` resolved to it). */
  promotedObject?: NonNullable<AdPromotedObject>;
  /** Absent for EU targeting: the ad account's defaults are taken, where the platform has them. */
  dsaBeneficiary?: string;
  dsaPayor?: string;
  startTime?: string;
  endTime?: string;
}

export interface AdInput {
  adsetId: string;
  creativeId: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  urlTags?: string;
  /**
   * `short_video_ads` (a boost): the ad is a Spark ad of this authorised TikTok post, shown as its creator, and
   * `creativeId` is the post's item id. Absent, `creativeId` is the platform's creative (Meta) or a video of the
   * advertiser's library (TikTok).
   */
  sparkPost?: SparkPost;
}

export type AdInputOf<L extends AdLevel> = L extends 'campaign' ? AdCampaignInput : L extends 'adset' ? AdSetInput : AdInput;

/** A change to one object: members absent keep their value; `null` removes (an end time, a bid, URL tags). */
export interface AdObjectChange {
  name?: string;
  status?: 'ACTIVE' | 'PAUSED' | 'ARCHIVED';
  dailyBudget?: number;
  lifetimeBudget?: number;
  bidStrategy?: Schemas['AdBidStrategy'];
  bidAmount?: number | null;
  targeting?: AdTargeting;
  endTime?: string | null;
  stopTime?: string | null;
  creativeId?: string;
  urlTags?: string | null;
}

/** What a list may be narrowed to; every member optional, all given must hold. */
export interface AdListFilter {
  /** Normalised effective statuses; absent: everything but `DELETED` and `ARCHIVED`, as the platforms list. */
  effectiveStatus?: AdEffectiveStatus[];
  objective?: AdObjective;
  campaignId?: string;
  adsetId?: string;
  /** Only objects changed at or after this time (ISO 8601). */
  updatedSince?: string;
}

export interface AdObjectPage<L extends AdLevel> {
  items: Array<AdObjectOf<L>>;
  /** The platform's cursor of the next page; null on the last. */
  nextCursor: string | null;
}

/** What the caller's request is known by on the platform: our member, for a 422 that names it. */
export type AdField = string;

/**
 * The platform refused the request (or would: a rule it has, checked by us before sending). `field` is the
 * request member at fault in the contract's words (`dailyBudget`, `targeting.advantageAudience`), or null when
 * the platform named none; `platformCode`/`platformSubcode` are the platform's own (null for our own check of its
 * rule); the message is the platform's words for a person.
 */
export class AdRefused extends PlatformError {
  constructor(
    readonly field: AdField | null,
    message: string,
    readonly platformCode: number | null = null,
    readonly platformSubcode: number | null = null,
  ) {
    super('invalid_request', message, platformCode === null ? {} : { platformCode });
    this.name = 'AdRefused';
  }
}

/** An object the request names (its `field`: `campaignId`, `adsetId`, `creativeId`) is not in the ad account: a 404. */
export class AdObjectNotFound extends PlatformError {
  constructor(
    readonly field: AdField,
    message: string,
  ) {
    super('invalid_request', message);
    this.name = 'AdObjectNotFound';
  }
}

/** The ad account can run no ads (disabled, unsettled, closed): a 422 `ad_account_disabled`. */
export class AdAccountDisabled extends PlatformError {
  constructor(message: string, platformCode?: number) {
    super('invalid_request', message, platformCode === undefined ? {} : { platformCode });
    this.name = 'AdAccountDisabled';
  }
}

/** Where one object's copy goes and how it starts: under `parentId` (null for a campaign), with this status and name. */
export interface AdCopyTarget {
  parentId: string | null;
  status: 'ACTIVE' | 'PAUSED';
  name: string;
}

/**
 * The platform's own copy of one object (Meta's `POST /{object-id}/copies`): everything the object has, its
 * creative, targeting and budgets included, without what is in it (the caller copies children one by one, each a
 * write of its own). Not idempotent: the caller wraps it in the write ledger and reconciles with `findCopy`.
 */
export interface AdObjectCopies {
  /** Copies `source` as `target` says; answers the copy's id. Refusals as `AdCampaigns.create`'s. */
  copy<L extends AdLevel>(account: AdsAccount, source: AdObjectOf<L>, target: AdCopyTarget): Promise<string>;
  /** After a lost answer: the copy of `source` made under `target.parentId` at or after `since`, or null. Never copies. */
  findCopy<L extends AdLevel>(account: AdsAccount, source: AdObjectOf<L>, target: AdCopyTarget, since: Date): Promise<string | null>;
}

/**
 * Campaigns, ad sets and ads on an ad platform, the same on every one (Meta's Marketing API: social_network;
 * TikTok's Business API: short_video_ads). Every amount in and out is integer minor units of `account.currency`;
 * statuses are normalised with the raw one kept (`platformStatus`). A platform refusal is an `AdRefused` naming our
 * member (never a bare `PlatformError` for a request the platform judged wrong); a parent or creative the input
 * names that the account does not have is `AdObjectNotFound`; a disabled ad account is `AdAccountDisabled`; token
 * and throttling failures are the usual `PlatformError`s.
 */
export interface AdCampaigns {
  /**
   * Creates one object under its parent (the account; `campaignId`; `adsetId`) and answers it as the platform now
   * has it (read back). The platform's own rules are checked first, by the adapter, and broken ones refused as
   * `AdRefused` before anything is sent (one budget level, objective ↔ optimisation goal ↔ billing event, minimum
   * budgets in the account's currency, the platform's required flags). Not idempotent: the caller wraps it in the
   * write ledger and reconciles a lost answer with `findCreated`.
   */
  create<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<AdObjectOf<L>>;
  /**
   * A dry run of `create`: the same checks, then the platform's own validation where it has one (Meta's
   * `execution_options=["validate_only"]`), ours alone where it has none. Resolves, when it would be created, with
   * who checked it (`platform`: its dry run after ours; `service`: ours alone); refuses as `create` would. Creates
   * nothing.
   */
  validate<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<'platform' | 'service'>;
  /**
   * After a lost answer: the object this input made on the platform at or after `since` (same parent, same name,
   * created since), or null when it made none. Never creates.
   */
  findCreated<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>, since: Date): Promise<AdObjectOf<L> | null>;
  /** One page of the account's objects of `level`, newest first, as the filter narrows them (on the platform where it can). */
  list<L extends AdLevel>(account: AdsAccount, level: L, filter: AdListFilter, limit: number, after?: string): Promise<AdObjectPage<L>>;
  /** One object; null when the account has none of that level with that id. A deleted one is still found (`DELETED`). */
  get<L extends AdLevel>(account: AdsAccount, level: L, id: string): Promise<AdObjectOf<L> | null>;
  /**
   * Changes one object (checked as `create` is: budgets, targeting rules) and answers it as it now is; null when
   * the account has no such object. A deleted or archived object's change is the platform's refusal (`AdRefused`).
   */
  update<L extends AdLevel>(account: AdsAccount, level: L, id: string, change: AdObjectChange): Promise<AdObjectOf<L> | null>;
  /**
   * Deletes one object (its children with it), which stays readable as `DELETED`. False when the account has no
   * such object; deleting one deleted already is true again (idempotent).
   */
  delete(account: AdsAccount, level: AdLevel, id: string): Promise<boolean>;
  /** The platform's own copies, where it has them; absent, a copy is the object read and created again. */
  copies?: AdObjectCopies;
}
