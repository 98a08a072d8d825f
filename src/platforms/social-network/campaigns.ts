import {
  AdAccountDisabled,
  type AdCampaignInput,
  type AdCampaignObject,
  type AdCampaigns,
  type AdInput,
  type AdInputOf,
  type AdLevel,
  type AdListFilter,
  type AdObjectChange,
  AdObjectNotFound,
  type AdObjectOf,
  type AdObjectPage,
  AdRefused,
  type AdsAccount,
  type AdSetInput,
  type AdSetObject,
  type AdTreeObject,
} from '../capabilities/ad-campaigns.js';
import { PlatformError } from '../errors.js';
import { classifyMetaError, type GraphErrorBody, type GraphList, nextCursorOf } from '../meta/graph.js';
import { checkAdSet, checkCampaign, checkChange, reachesEu } from './ad-checks.js';
import { SocialNetworkAdCopies } from './ad-copies.js';
import { EDGE, EFFECTIVE_STATUSES, FIELDS, type GraphTreeObject, graphTargeting, isOf, treeObjectOf } from './ad-objects.js';
import { FIELD_OF_SUBCODE, TREE_SUBCODES } from './ad-rules.js';
import type { SocialNetworkClient } from './client.js';

type Form = Record<string, string | number | undefined>;

/** Graph 100/33: no such object (or none this token may see). */
export const UNKNOWN_OBJECT = 33;
/** How far back a lost create is looked for among the parent's newest objects. */
const RECONCILE_SCAN = 200;

/**
 * The Marketing API's refusals as the tree's failures: a disabled ad account, else any refusal of the request
 * (code 100 and the like, with the member its subcode names where the rules know it). Token, permission and
 * throttling failures stay Meta's.
 */
export function classifyMarketingError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  if (error.kind !== 'invalid_request') return error;
  const graph = (body as GraphErrorBody | null)?.error as (GraphErrorBody['error'] & { error_user_msg?: string }) | undefined;
  const code = graph?.code ?? null;
  const subcode = graph?.error_subcode ?? null;
  const words = graph?.error_user_msg ?? error.message;
  if (subcode === TREE_SUBCODES.accountDisabled) return new AdAccountDisabled(words, code ?? undefined);
  return new AdRefused(subcode === null ? null : (FIELD_OF_SUBCODE[subcode] ?? null), words, code, subcode);
}

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
const unix = (iso: string | undefined) => (iso === undefined ? undefined : Math.floor(Date.parse(iso) / 1000));

/**
 * Campaigns, ad sets and ads over the Marketing API with the person's token the ad account keeps (ads_management),
 * `/act_{id}/campaigns|adsets|ads` and `/{object-id}`. The v23+ rules are checked first (ad-checks.ts); every
 * object is read back after a write, so the answer is what the platform keeps.
 */
export class SocialNetworkAdCampaigns implements AdCampaigns {
  readonly copies = new SocialNetworkAdCopies((account, method, path, request) => this.call(account, method, path, request));

  constructor(private readonly client: SocialNetworkClient) {}

  private call<T>(account: AdsAccount, method: 'GET' | 'POST' | 'DELETE', path: string, request: { query?: Form; form?: Form } = {}) {
    return this.client.call<T>(method, path, { token: account.credentials.accessToken, ...request }, classifyMarketingError);
  }

  async create<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<AdObjectOf<L>> {
    const form = await this.creation(account, level, input);
    const { id } = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/${EDGE[level]}`, { form });
    const created = await this.get(account, level, id);
    if (!created) throw new PlatformError('transient', `the ${level} ${id} was created but could not be read back`);
    return created;
  }

  async validate<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<'platform'> {
    const form = await this.creation(account, level, input);
    await this.call(account, 'POST', `${account.platformAccountId}/${EDGE[level]}`, {
      form: { ...form, execution_options: json(['validate_only']) },
    });
    return 'platform';
  }

  async findCreated<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>, since: Date): Promise<AdObjectOf<L> | null> {
    const parent =
      level === 'campaign' ? account.platformAccountId : level === 'adset' ? (input as AdSetInput).campaignId : (input as AdInput).adsetId;
    // Graph times are in seconds: the second the attempt started counts.
    const from = Math.floor(since.getTime() / 1000) * 1000;
    let after: string | undefined;
    for (let seen = 0; seen < RECONCILE_SCAN;) {
      const page = await this.call<GraphList<GraphTreeObject>>(account, 'GET', `${parent}/${EDGE[level]}`, {
        query: { fields: FIELDS[level], limit: 50, after, effective_status: json(EFFECTIVE_STATUSES) },
      });
      for (const raw of page.data) {
        if (Date.parse(treeObjectOf(level, raw, account.currency).createdAt) < from) return null;
        if (raw.name === input.name) return treeObjectOf(level, raw, account.currency);
      }
      seen += page.data.length;
      after = nextCursorOf(page) ?? undefined;
      if (!after) return null;
    }
    return null;
  }

  async list<L extends AdLevel>(
    account: AdsAccount,
    level: L,
    filter: AdListFilter,
    limit: number,
    after?: string,
  ): Promise<AdObjectPage<L>> {
    const filtering = [
      ...(filter.objective ? [{ field: 'objective', operator: 'EQUAL', value: filter.objective }] : []),
      ...(filter.campaignId ? [{ field: 'campaign.id', operator: 'IN', value: [filter.campaignId] }] : []),
      ...(filter.adsetId ? [{ field: 'adset.id', operator: 'IN', value: [filter.adsetId] }] : []),
      ...(filter.updatedSince ? [{ field: 'updated_time', operator: 'GREATER_THAN', value: unix(filter.updatedSince)! - 1 }] : []),
    ];
    const page = await this.call<GraphList<GraphTreeObject>>(account, 'GET', `${account.platformAccountId}/${EDGE[level]}`, {
      query: {
        fields: FIELDS[level],
        limit,
        after,
        effective_status: json(filter.effectiveStatus),
        filtering: filtering.length ? json(filtering) : undefined,
      },
    });
    return { items: page.data.map((raw) => treeObjectOf(level, raw, account.currency)), nextCursor: nextCursorOf(page) };
  }

  async get<L extends AdLevel>(account: AdsAccount, level: L, id: string): Promise<AdObjectOf<L> | null> {
    try {
      const raw = await this.call<GraphTreeObject>(account, 'GET', id, { query: { fields: FIELDS[level] } });
      return isOf(raw, level, account.platformAccountId) ? treeObjectOf(level, raw, account.currency) : null;
    } catch (error) {
      // Another kind of object refuses the level's fields (100), an unknown one is 100/33.
      if (error instanceof AdRefused && error.platformCode === 100) return null;
      throw error;
    }
  }

  async update<L extends AdLevel>(account: AdsAccount, level: L, id: string, change: AdObjectChange): Promise<AdObjectOf<L> | null> {
    const current: AdTreeObject | null = await this.get(account, level, id);
    if (!current) return null;
    if (current.level !== 'ad') {
      const campaign = current.level === 'campaign' ? current : await this.get(account, 'campaign', current.campaignId);
      checkChange(change, current, campaign, account.currency);
    }
    const form: Form = {
      name: change.name,
      status: change.status,
      daily_budget: change.dailyBudget,
      lifetime_budget: change.lifetimeBudget,
      bid_strategy: change.bidStrategy,
      bid_amount: change.bidAmount === null ? '' : change.bidAmount,
      targeting: change.targeting ? json(graphTargeting(change.targeting)) : undefined,
      end_time: change.endTime === null ? '' : change.endTime,
      stop_time: change.stopTime === null ? '' : change.stopTime,
      creative: change.creativeId ? json({ creative_id: change.creativeId }) : undefined,
      url_tags: change.urlTags === null ? '' : change.urlTags,
    };
    await this.call(account, 'POST', id, { form });
    return this.get(account, level, id);
  }

  async delete(account: AdsAccount, level: AdLevel, id: string): Promise<boolean> {
    const current = await this.get(account, level, id);
    if (!current) return false;
    if (current.status !== 'DELETED') await this.call(account, 'DELETE', id);
    return true;
  }

  /** The Graph form that creates the input, once the rules hold; the parent is read for the rules that need it. */
  private async creation<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<Form> {
    if (level === 'campaign') return this.campaignForm(account, input as AdCampaignInput);
    if (level === 'adset') return this.adSetForm(account, input as AdSetInput);
    return this.adForm(account, input as AdInput);
  }

  private campaignForm(account: AdsAccount, input: AdCampaignInput): Form {
    checkCampaign(input, account.currency);
    const campaignBudget = input.dailyBudget !== undefined || input.lifetimeBudget !== undefined;
    return {
      name: input.name,
      objective: input.objective,
      status: input.status,
      special_ad_categories: json(input.specialAdCategories),
      special_ad_category_country: input.specialAdCategories.length ? json(input.specialAdCategoryCountries) : undefined,
      daily_budget: input.dailyBudget,
      lifetime_budget: input.lifetimeBudget,
      bid_strategy: input.bidStrategy,
      is_adset_budget_sharing_enabled: campaignBudget ? undefined : String(input.isAdsetBudgetSharingEnabled),
      start_time: input.startTime,
      stop_time: input.stopTime,
    };
  }

  private async adSetForm(account: AdsAccount, input: AdSetInput): Promise<Form> {
    const campaign: AdCampaignObject | null = await this.get(account, 'campaign', input.campaignId);
    if (!campaign || campaign.status === 'DELETED')
      throw new AdObjectNotFound('campaignId', `No campaign ${input.campaignId} in the ad account.`);
    const defaults = reachesEu(input.targeting) && (!input.dsaBeneficiary || !input.dsaPayor) ? await this.dsaDefaults(account) : {};
    const withDsa = {
      ...input,
      dsaBeneficiary: input.dsaBeneficiary ?? defaults.dsaBeneficiary,
      dsaPayor: input.dsaPayor ?? defaults.dsaPayor,
    };
    checkAdSet(withDsa, campaign, account.currency);
    const promoted = input.promotedObject;
    return {
      name: input.name,
      campaign_id: input.campaignId,
      status: input.status,
      daily_budget: input.dailyBudget,
      lifetime_budget: input.lifetimeBudget,
      billing_event: input.billingEvent,
      optimization_goal: input.optimizationGoal,
      bid_strategy: input.bidStrategy,
      bid_amount: input.bidAmount,
      targeting: json(graphTargeting(input.targeting)),
      promoted_object: promoted
        ? json({
            pixel_id: promoted.pixelId,
            custom_event_type: promoted.customEventType,
            custom_conversion_id: promoted.customConversionId,
            page_id: promoted.pageId,
            product_set_id: promoted.productSetId,
          })
        : undefined,
      dsa_beneficiary: withDsa.dsaBeneficiary,
      dsa_payor: withDsa.dsaPayor,
      start_time: input.startTime,
      end_time: input.endTime,
    };
  }

  private async adForm(account: AdsAccount, input: AdInput): Promise<Form> {
    const adset: AdSetObject | null = await this.get(account, 'adset', input.adsetId);
    if (!adset || adset.status === 'DELETED') throw new AdObjectNotFound('adsetId', `No ad set ${input.adsetId} in the ad account.`);
    if (!(await this.hasCreative(account, input.creativeId)))
      throw new AdObjectNotFound('creativeId', `No creative ${input.creativeId} in the ad account.`);
    return {
      name: input.name,
      adset_id: input.adsetId,
      creative: json({ creative_id: input.creativeId }),
      status: input.status,
      url_tags: input.urlTags,
    };
  }

  private async hasCreative(account: AdsAccount, creativeId: string): Promise<boolean> {
    try {
      const raw = await this.call<{ account_id?: string }>(account, 'GET', creativeId, { query: { fields: 'id,account_id' } });
      return `act_${raw.account_id}` === account.platformAccountId;
    } catch (error) {
      if (error instanceof AdRefused && error.platformSubcode === UNKNOWN_OBJECT) return false;
      throw error;
    }
  }

  /** The ad account's default DSA declaration, where its settings have one. */
  private async dsaDefaults(account: AdsAccount): Promise<{ dsaBeneficiary?: string; dsaPayor?: string }> {
    const raw = await this.call<{ default_dsa_beneficiary?: string; default_dsa_payor?: string }>(
      account,
      'GET',
      account.platformAccountId,
      {
        query: { fields: 'default_dsa_beneficiary,default_dsa_payor' },
      },
    );
    return {
      ...(raw.default_dsa_beneficiary ? { dsaBeneficiary: raw.default_dsa_beneficiary } : {}),
      ...(raw.default_dsa_payor ? { dsaPayor: raw.default_dsa_payor } : {}),
    };
  }
}
