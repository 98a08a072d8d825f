import type { AdObjective } from '../capabilities/ad-campaigns.js';

/**
 * The Marketing API's rules for the campaign tree (v23+), kept as data: the adapter checks them before sending, and
 * the sandbox refuses by them as the platform does. Goals and billing events are in the Graph's own words.
 */

/** The optimisation goals each outcome objective allows. */
export const GOALS_BY_OBJECTIVE: Record<AdObjective, readonly string[]> = {
  OUTCOME_AWARENESS: ['REACH', 'IMPRESSIONS', 'THRUPLAY'],
  OUTCOME_TRAFFIC: ['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'REACH', 'IMPRESSIONS', 'CONVERSATIONS'],
  OUTCOME_ENGAGEMENT: ['POST_ENGAGEMENT', 'THRUPLAY', 'CONVERSATIONS', 'PAGE_LIKES', 'LINK_CLICKS', 'IMPRESSIONS', 'REACH'],
  OUTCOME_LEADS: ['LEAD_GENERATION', 'QUALITY_LEAD', 'OFFSITE_CONVERSIONS', 'CONVERSATIONS', 'LINK_CLICKS'],
  OUTCOME_APP_PROMOTION: ['APP_INSTALLS', 'LINK_CLICKS', 'VALUE'],
  OUTCOME_SALES: ['OFFSITE_CONVERSIONS', 'VALUE', 'LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'CONVERSATIONS', 'IMPRESSIONS', 'REACH'],
};

/** Billing on impressions fits every goal; billing on an event only the goal of that event. */
export function billingFits(billingEvent: string, goal: string): boolean {
  return billingEvent === 'IMPRESSIONS' || billingEvent === goal;
}

/** Bid strategies that need `bid_amount`. */
export const BID_AMOUNT_STRATEGIES: readonly string[] = ['LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'];

/** Goals that need a promoted object, and which of its members. */
export const PROMOTED_OBJECT_NEEDS: Record<string, 'pixel_id' | 'page_id'> = {
  OFFSITE_CONVERSIONS: 'pixel_id',
  VALUE: 'pixel_id',
  LEAD_GENERATION: 'page_id',
  PAGE_LIKES: 'page_id',
};

/**
 * The smallest daily budget billed on impressions, in major units of the account's currency (1 unit where the
 * list has none); billing on clicks, engagement or plays needs 5 times that, on app installs 40 times.
 */
const MINIMUM_DAILY_MAJOR: Record<string, number> = {
  JPY: 150,
  KRW: 1400,
  INR: 80,
  IDR: 15000,
  BRL: 5,
  MXN: 20,
  SEK: 10,
  NOK: 10,
  DKK: 7,
  PLN: 4,
  HUF: 350,
  CZK: 25,
  TRY: 30,
};
const BILLING_FACTOR: Record<string, number> = { IMPRESSIONS: 1, LINK_CLICKS: 5, POST_ENGAGEMENT: 5, THRUPLAY: 5, APP_INSTALLS: 40 };

/** The minimum daily budget in minor units, given the currency's exponent (a campaign budget is billed as impressions). */
export function minimumDailyBudget(currency: string, exponent: number, billingEvent = 'IMPRESSIONS'): number {
  return (MINIMUM_DAILY_MAJOR[currency] ?? 1) * (BILLING_FACTOR[billingEvent] ?? 1) * 10 ** exponent;
}

/** The EU's member states: an ad set reaching any needs the Digital Services Act's beneficiary and payer. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
);

/**
 * The Marketing API's refusals of the tree's rules, by subcode (code 100 for all), and the request member each
 * names. The platform's words go with them in `error_user_msg`.
 */
export const TREE_SUBCODES = {
  specialAdCategoryCountry: 3858495,
  budgetSharingMissing: 4834011,
  budgetSharingWithoutBidStrategy: 4834005,
  budgetAtBothLevels: 1885621,
  noBudget: 1885652,
  budgetTooLow: 1885272,
  lifetimeBudgetWithoutEnd: 1885305,
  advantageAudienceMissing: 1870227,
  advantageAudienceAge: 1870189,
  dsaMissing: 3858082,
  goalForObjective: 2490408,
  billingForGoal: 1815117,
  bidAmountMissing: 1815857,
  promotedObjectMissing: 1815430,
  specialCategoryTargeting: 1885322,
  parentMissing: 1815004,
  objectDeleted: 1815001,
  budgetTypeSwitch: 1885624,
  /** A deep copy of more objects than one synchronous copy makes. */
  copyLimit: 1885194,
  /** A write on an ad account that can run no ads (disabled, unsettled, closed). */
  accountDisabled: 1487010,
} as const;

/** The request member (our contract's words) each refusal is about, for the 422 that names it. */
export const FIELD_OF_SUBCODE: Record<number, string> = {
  [TREE_SUBCODES.specialAdCategoryCountry]: 'specialAdCategoryCountries',
  [TREE_SUBCODES.budgetSharingMissing]: 'isAdsetBudgetSharingEnabled',
  [TREE_SUBCODES.budgetSharingWithoutBidStrategy]: 'bidStrategy',
  [TREE_SUBCODES.budgetAtBothLevels]: 'dailyBudget',
  [TREE_SUBCODES.noBudget]: 'dailyBudget',
  [TREE_SUBCODES.budgetTooLow]: 'dailyBudget',
  [TREE_SUBCODES.lifetimeBudgetWithoutEnd]: 'endTime',
  [TREE_SUBCODES.advantageAudienceMissing]: 'targeting.advantageAudience',
  [TREE_SUBCODES.advantageAudienceAge]: 'targeting.ageMax',
  [TREE_SUBCODES.dsaMissing]: 'dsaBeneficiary',
  [TREE_SUBCODES.goalForObjective]: 'optimizationGoal',
  [TREE_SUBCODES.billingForGoal]: 'billingEvent',
  [TREE_SUBCODES.bidAmountMissing]: 'bidAmount',
  [TREE_SUBCODES.promotedObjectMissing]: 'promotedObject',
  [TREE_SUBCODES.specialCategoryTargeting]: 'targeting',
  [TREE_SUBCODES.budgetTypeSwitch]: 'dailyBudget',
};
