import { currencyExponent, moneyText } from '../../lib/money.js';
import {
  type AdCampaignInput,
  type AdCampaignObject,
  type AdObjectChange,
  AdRefused,
  type AdSetInput,
  type AdSetObject,
  type AdTargeting,
} from '../capabilities/ad-campaigns.js';
import {
  BID_AMOUNT_STRATEGIES,
  billingFits,
  EU_COUNTRIES,
  GOALS_BY_OBJECTIVE,
  minimumDailyBudget,
  PROMOTED_OBJECT_NEEDS,
} from './ad-rules.js';

/**
 * The Marketing API's rules for the tree (ad-rules.ts), checked before anything is sent, so that a request the
 * platform would refuse is a 422 naming our member at once. Each function throws the first rule broken.
 */

const PROMOTED_MEMBER: Record<'pixel_id' | 'page_id', string> = { pixel_id: 'pixelId', page_id: 'pageId' };

function checkMinimum(budget: number | undefined, field: string, currency: string, billingEvent?: string): void {
  if (budget === undefined) return;
  const minimum = minimumDailyBudget(currency, currencyExponent(currency), billingEvent);
  if (budget < minimum)
    throw new AdRefused(
      field,
      `The daily budget must be at least ${moneyText(minimum, currency)} on this ad account (billed on ${billingEvent ?? 'IMPRESSIONS'}).`,
    );
}

/**
 * A lifetime budget must cover the daily minimum for every day of its schedule (a day begun counts whole; a
 * schedule starting now when it names no start). Without an end there is no schedule to measure.
 */
function checkLifetimeMinimum(
  budget: number | undefined,
  schedule: { start: string | null | undefined; end: string | null | undefined },
  currency: string,
  billingEvent?: string,
): void {
  if (budget === undefined || !schedule.end) return;
  const start = schedule.start ? Date.parse(schedule.start) : Date.now();
  const days = Math.max(1, Math.ceil((Date.parse(schedule.end) - start) / 86_400_000));
  const daily = minimumDailyBudget(currency, currencyExponent(currency), billingEvent);
  if (budget < daily * days)
    throw new AdRefused(
      'lifetimeBudget',
      `The lifetime budget must be at least ${moneyText(daily * days, currency)}: ${moneyText(daily, currency)} a day for the ${days} days of the schedule (billed on ${billingEvent ?? 'IMPRESSIONS'}).`,
    );
}

export function checkCampaign(input: AdCampaignInput, currency: string): void {
  if (input.specialAdCategories.length > 0 && input.specialAdCategoryCountries.length === 0)
    throw new AdRefused(
      'specialAdCategoryCountries',
      'A campaign with special ad categories must name the countries they are declared for.',
    );
  const campaignBudget = input.dailyBudget !== undefined || input.lifetimeBudget !== undefined;
  if (!campaignBudget && input.isAdsetBudgetSharingEnabled && input.bidStrategy && input.bidStrategy !== 'LOWEST_COST_WITHOUT_CAP')
    throw new AdRefused('bidStrategy', 'Ad set budget sharing works only with the LOWEST_COST_WITHOUT_CAP bid strategy.');
  checkMinimum(input.dailyBudget, 'dailyBudget', currency);
  checkLifetimeMinimum(input.lifetimeBudget, { start: input.startTime, end: input.stopTime }, currency);
}

/**
 * The targeting's rules under its campaign: special ad categories narrow by neither age nor gender; Advantage+
 * audience keeps the age range open above 25 and to 65.
 */
export function checkTargeting(targeting: AdTargeting, campaign: AdCampaignObject): void {
  if (campaign.specialAdCategories.length > 0) {
    if ((targeting.genders ?? []).length > 0)
      throw new AdRefused('targeting.genders', 'Ad sets of a campaign with special ad categories cannot narrow by gender.');
    if ((targeting.ageMin ?? 18) !== 18 || (targeting.ageMax ?? 65) !== 65)
      throw new AdRefused('targeting.ageMin', 'Ad sets of a campaign with special ad categories cannot narrow by age.');
  }
  if (targeting.advantageAudience && ((targeting.ageMax ?? 65) < 65 || (targeting.ageMin ?? 18) > 25))
    throw new AdRefused('targeting.ageMax', 'With Advantage+ audience the age range must reach 65 and start at 25 or younger.');
}

/** Whether the targeting reaches an EU country: the DSA declaration is then required. */
export const reachesEu = (targeting: AdTargeting) => (targeting.geoLocations.countries ?? []).some((country) => EU_COUNTRIES.has(country));

export function checkAdSet(input: AdSetInput, campaign: AdCampaignObject, currency: string): void {
  if (!GOALS_BY_OBJECTIVE[campaign.objective].includes(input.optimizationGoal))
    throw new AdRefused(
      'optimizationGoal',
      `The optimisation goal ${input.optimizationGoal} does not fit the campaign's objective ${campaign.objective}.`,
    );
  if (!billingFits(input.billingEvent, input.optimizationGoal))
    throw new AdRefused('billingEvent', `Billing on ${input.billingEvent} does not fit the optimisation goal ${input.optimizationGoal}.`);
  const own = input.dailyBudget !== undefined ? 'dailyBudget' : input.lifetimeBudget !== undefined ? 'lifetimeBudget' : null;
  const campaignBudget = campaign.dailyBudget !== null || campaign.lifetimeBudget !== null;
  if (campaignBudget && own) throw new AdRefused(own, 'The campaign has a campaign budget: its ad sets take no budget of their own.');
  if (!campaignBudget && !own)
    throw new AdRefused('dailyBudget', 'The campaign has no budget: give the ad set a daily or lifetime budget.');
  if (input.lifetimeBudget !== undefined && !input.endTime)
    throw new AdRefused('endTime', 'An ad set with a lifetime budget needs an endTime.');
  const strategy = input.bidStrategy ?? campaign.bidStrategy;
  if (strategy && BID_AMOUNT_STRATEGIES.includes(strategy) && input.bidAmount === undefined)
    throw new AdRefused('bidAmount', `The bid strategy ${strategy} needs a bidAmount.`);
  const needs = PROMOTED_OBJECT_NEEDS[input.optimizationGoal];
  if (needs && !input.promotedObject?.[PROMOTED_MEMBER[needs] as 'pixelId' | 'pageId'])
    throw new AdRefused(
      `promotedObject.${PROMOTED_MEMBER[needs]}`,
      `The optimisation goal ${input.optimizationGoal} needs promotedObject.${PROMOTED_MEMBER[needs]}.`,
    );
  checkTargeting(input.targeting, campaign);
  if (reachesEu(input.targeting) && (!input.dsaBeneficiary || !input.dsaPayor))
    throw new AdRefused(
      'dsaBeneficiary',
      'Ad sets reaching the EU must name who benefits from and who pays for the ads, and the ad account has no default declaration to take.',
    );
  checkMinimum(input.dailyBudget, 'dailyBudget', currency, input.billingEvent);
  checkLifetimeMinimum(input.lifetimeBudget, { start: input.startTime, end: input.endTime }, currency, input.billingEvent);
}

/** A change's rules: one budget type for good, the minimum, the targeting's rules under its campaign. */
export function checkChange(
  change: AdObjectChange,
  current: AdCampaignObject | AdSetObject,
  campaign: AdCampaignObject | null,
  currency: string,
): void {
  if (change.dailyBudget !== undefined && current.lifetimeBudget !== null)
    throw new AdRefused('dailyBudget', 'A lifetime budget cannot become a daily budget.');
  if (change.lifetimeBudget !== undefined && current.dailyBudget !== null)
    throw new AdRefused('lifetimeBudget', 'A daily budget cannot become a lifetime budget.');
  const billingEvent = current.level === 'adset' ? current.billingEvent : undefined;
  checkMinimum(change.dailyBudget, 'dailyBudget', currency, billingEvent);
  // A new lifetime budget, or a new end for the one it has, must cover the schedule's days.
  const newEnd = current.level === 'adset' ? change.endTime : change.stopTime;
  const end = newEnd === undefined ? (current.level === 'adset' ? current.endTime : current.stopTime) : newEnd;
  const lifetime = change.lifetimeBudget ?? (newEnd === undefined ? undefined : (current.lifetimeBudget ?? undefined));
  checkLifetimeMinimum(lifetime, { start: current.startTime, end }, currency, billingEvent);
  if (change.targeting && campaign) checkTargeting(change.targeting, campaign);
}
