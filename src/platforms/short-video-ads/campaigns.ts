import {
  type AdCampaigns,
  type AdInputOf,
  type AdLevel,
  type AdListFilter,
  type AdObjectChange,
  type AdObjectOf,
  type AdObjectPage,
  AdObjectNotFound,
  AdRefused,
  type AdsAccount,
  type AdSetInput,
} from '../capabilities/ad-campaigns.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import { adBody, adgroupBody, type AdIdentity, campaignBody, changeBody, libraryVideo } from './campaign-requests.js';
import { apiTime, type Listed, OBJECTIVE_TYPES, treeObject } from './campaign-mapping.js';
import type { BusinessApiClient } from './client.js';
import { sparkCreative } from './spark.js';

type Body = Record<string, unknown>;

/** Each level's name in the API's paths and its id field. */
const PATHS: Record<AdLevel, { path: string; id: string }> = {
  campaign: { path: 'campaign', id: 'campaign_id' },
  adset: { path: 'adgroup', id: 'adgroup_id' },
  ad: { path: 'ad', id: 'ad_id' },
};

/** The API's fields a 40002 names (`field: reason`), as our members. */
const FIELDS: Record<string, string> = {
  campaign_name: 'name',
  adgroup_name: 'name',
  'creatives.ad_name': 'name',
  'creatives.ad_text': 'name',
  'creatives.video_id': 'creativeId',
  'creatives.tiktok_item_id': 'creativeId',
  objective_type: 'objective',
  special_industries: 'specialAdCategories',
  optimization_goal: 'optimizationGoal',
  billing_event: 'billingEvent',
  bid_type: 'bidStrategy',
  bid_price: 'bidAmount',
  location_ids: 'targeting.geoLocations',
  age_groups: 'targeting.ageMin',
  gender: 'targeting.genders',
  languages: 'targeting.locales',
  interest_category_ids: 'targeting.interests',
  schedule_start_time: 'startTime',
  schedule_end_time: 'endTime',
  campaign_id: 'campaignId',
  adgroup_id: 'adsetId',
};

/** Effective statuses only a list of everything (deleted objects too) holds. */
const GONE = new Set(['DELETED', 'ARCHIVED']);

/**
 * The campaign tree on the TikTok Business API v1.3 (`campaign|adgroup|ad` `/get/`, `/create/`, `/update/`,
 * `/status/update/`): amounts are decimals of the advertiser's currency, converted from and to minor units; a
 * refusal (40002) is an `AdRefused` naming our member; the platform has no dry run, so `validate` is our checks
 * of its rules. A deleted object stays readable (`secondary_status` `…_DELETE`).
 */
export class ShortVideoAdsCampaigns implements AdCampaigns {
  /** Each advertiser's countries by location id (their ISO codes), read once (`tool/region`). */
  private readonly countries = new Map<string, Promise<Map<string, string>>>();
  /** Each advertiser's custom identity, its ads shown as it, read once (`identity/get`). */
  private readonly identities = new Map<string, Promise<AdIdentity>>();

  constructor(private readonly client: BusinessApiClient) {}

  async create<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<AdObjectOf<L>> {
    const body = await this.createBody(account, level, input);
    const data = await this.send<Body>(account, `/${PATHS[level].path}/create/`, body, input);
    const id = level === 'ad' ? (data.ad_ids as string[])[0] : data[PATHS[level].id];
    const created = await this.get(account, level, String(id));
    if (!created) throw new PlatformError('transient', `the ${level} created (${String(id)}) cannot be read back`);
    return created;
  }

  /** TikTok has no dry run: our checks of its rules are all there is (`service`). */
  async validate<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>): Promise<'service'> {
    await this.createBody(account, level, input);
    return 'service';
  }

  async findCreated<L extends AdLevel>(account: AdsAccount, level: L, input: AdInputOf<L>, since: Date): Promise<AdObjectOf<L> | null> {
    const named = input.name;
    // The API's creation times are whole seconds: a second earlier still finds what was made at `since`.
    const filtering: Body = {
      ...this.parentFilter(level, input),
      creation_filter_start_time: apiTime(new Date(since.getTime() - 1000).toISOString()),
    };
    const { list } = await this.page(account, level, { ...filtering, [`${PATHS[level].path}_name`]: named }, 1, 100, true);
    const found = list.find((object) => object[level === 'adset' ? 'adgroup_name' : `${level}_name`] === named);
    return found ? this.map(account, level, found) : null;
  }

  async list<L extends AdLevel>(
    account: AdsAccount,
    level: L,
    filter: AdListFilter,
    limit: number,
    after?: string,
  ): Promise<AdObjectPage<L>> {
    const page = Number(after ?? 1) || 1;
    const filtering: Body = {
      ...(filter.campaignId ? { campaign_ids: [filter.campaignId] } : {}),
      ...(filter.adsetId ? { adgroup_ids: [filter.adsetId] } : {}),
      ...(filter.objective && level === 'campaign' && filter.objective !== 'OUTCOME_SALES'
        ? { objective_type: OBJECTIVE_TYPES[filter.objective] }
        : {}),
    };
    const withGone = (filter.effectiveStatus ?? []).some((status) => GONE.has(status));
    const answer = await this.page(account, level, filtering, page, Math.min(limit, 1000), withGone);
    const items = (await Promise.all(answer.list.map((object) => this.map(account, level, object)))).filter(
      (item) =>
        (!filter.effectiveStatus || filter.effectiveStatus.includes(item.effectiveStatus)) &&
        (!filter.objective || !('objective' in item) || item.objective === filter.objective) &&
        (!filter.updatedSince || Date.parse(item.updatedAt) >= Date.parse(filter.updatedSince)),
    );
    return { items, nextCursor: answer.more ? String(page + 1) : null };
  }

  async get<L extends AdLevel>(account: AdsAccount, level: L, id: string): Promise<AdObjectOf<L> | null> {
    const found = await this.listed(account, level, id);
    return found ? this.map(account, level, found) : null;
  }

  async update<L extends AdLevel>(account: AdsAccount, level: L, id: string, change: AdObjectChange): Promise<AdObjectOf<L> | null> {
    const current = await this.listed(account, level, id);
    if (!current) return null;
    const countries = change.targeting?.geoLocations.countries?.length ? await this.countryIds(account) : new Map<string, string>();
    const body = changeBody(level, change, current, account.currency, byCode(countries));
    const { path, id: idField } = PATHS[level];
    if (Object.keys(body).length > 0) {
      const members = level === 'ad' ? { adgroup_id: current.adgroup_id, creatives: [{ ad_id: id, ...body }] } : { [idField]: id, ...body };
      await this.send(account, `/${path}/update/`, members, change);
    }
    if (change.status) await this.setStatus(account, level, [id], change.status === 'ACTIVE' ? 'ENABLE' : 'DISABLE');
    return this.get(account, level, id);
  }

  async delete(account: AdsAccount, level: AdLevel, id: string): Promise<boolean> {
    const current = await this.listed(account, level, id);
    if (!current) return false;
    if (!String(current.secondary_status ?? current.operation_status).endsWith('DELETE'))
      await this.setStatus(account, level, [id], 'DELETE');
    return true;
  }

  /**
   * Switches up to 20 objects of one level at once (`status/update`), all or none: the API's own batch, which
   * bulk pausing and resuming uses.
   */
  async setStatus(account: AdsAccount, level: AdLevel, ids: string[], operation: 'ENABLE' | 'DISABLE' | 'DELETE'): Promise<void> {
    const { path } = PATHS[level];
    await this.send(account, `/${path}/status/update/`, { [`${path}_ids`]: ids, operation_status: operation }, {});
  }

  /** The body of a create, after the platform's rules are checked (an ad group's against its campaign). */
  private async createBody(account: AdsAccount, level: AdLevel, input: AdInputOf<AdLevel>): Promise<Body> {
    if (level === 'campaign') return campaignBody(input as AdInputOf<'campaign'>, account.currency);
    if (level === 'ad') {
      const ad = input as AdInputOf<'ad'>;
      return adBody(ad, ad.sparkPost ? sparkCreative(ad.creativeId, ad.sparkPost) : libraryVideo(ad, await this.identity(account)));
    }
    const adset = input as AdSetInput;
    const campaign = await this.listed(account, 'campaign', adset.campaignId);
    if (!campaign) throw new AdObjectNotFound('campaignId', `The ad account has no campaign ${adset.campaignId}.`);
    if (String(campaign.secondary_status).endsWith('DELETE'))
      throw new AdRefused('campaignId', `The campaign ${adset.campaignId} is deleted: it takes no new ad groups.`);
    const countries = adset.targeting.geoLocations.countries?.length ? await this.countryIds(account) : new Map<string, string>();
    return adgroupBody(adset, campaign, account.currency, byCode(countries));
  }

  private parentFilter(level: AdLevel, input: AdInputOf<AdLevel>): Body {
    if (level === 'adset') return { campaign_ids: [(input as AdSetInput).campaignId] };
    if (level === 'ad') return { adgroup_ids: [(input as AdInputOf<'ad'>).adsetId] };
    return {};
  }

  /** One object as `get` lists it, deleted ones too; null when the advertiser has none with that id. */
  private async listed(account: AdsAccount, level: AdLevel, id: string): Promise<Listed | null> {
    if (!/^\d{1,20}$/.test(id)) return null;
    const { list } = await this.page(account, level, { [`${PATHS[level].id}s`]: [id] }, 1, 1, true);
    return list[0] ?? null;
  }

  /** One page of a level's `get`; `all` includes deleted objects. */
  private async page(account: AdsAccount, level: AdLevel, filtering: Body, page: number, size: number, all: boolean) {
    const { path } = PATHS[level];
    const status = all ? { secondary_status: `${path.toUpperCase()}_STATUS_ALL` } : {};
    const query = new URLSearchParams({
      advertiser_id: account.platformAccountId,
      filtering: JSON.stringify({ ...filtering, ...status }),
      page: String(page),
      page_size: String(size),
    });
    const data = await this.client.call<{ list?: Listed[]; page_info?: { page?: number; total_page?: number } }>(`/${path}/get/?${query}`, {
      accessToken: account.credentials.accessToken,
    });
    return { list: data.list ?? [], more: (data.page_info?.page ?? page) < (data.page_info?.total_page ?? 0) };
  }

  private async map<L extends AdLevel>(account: AdsAccount, level: L, object: Listed): Promise<AdObjectOf<L>> {
    const countries = level === 'adset' ? await this.countryIds(account) : new Map<string, string>();
    return treeObject(level, object, account, countries) as AdObjectOf<L>;
  }

  /** A write to the API; its refusal (40002) as an `AdRefused` naming our member of `input`. */
  private async send<T>(account: AdsAccount, path: string, body: Body, input: object): Promise<T> {
    try {
      return await this.client.call<T>(path, {
        method: 'POST',
        accessToken: account.credentials.accessToken,
        body: { advertiser_id: account.platformAccountId, ...body },
      });
    } catch (error) {
      if (!(error instanceof PlatformError) || error.details.platformCode !== 40002) throw error;
      const named = /^([a-z_.]+):/.exec(error.message)?.[1] ?? '';
      // A parent the request names that the advertiser does not have (an ad's ad group) is not found, not refused.
      if ((named === 'campaign_id' || named === 'adgroup_id') && error.message.endsWith('does not exist.'))
        throw new AdObjectNotFound(FIELDS[named]!, error.message);
      const field =
        named === 'budget' || named === 'budget_mode'
          ? 'lifetimeBudget' in input
            ? 'lifetimeBudget'
            : 'dailyBudget'
          : (FIELDS[named] ?? null);
      throw new AdRefused(field, error.message, 40002);
    }
  }

  /**
   * The advertiser's custom identity (the first `CUSTOMIZED_USER` of `identity/get`), kept once read; an advertiser
   * without one cannot have ads made by us (a Spark ad's creator identity is the creator's to give).
   */
  private identity(account: AdsAccount): Promise<AdIdentity> {
    const kept = this.identities.get(account.platformAccountId);
    if (kept) return kept;
    const query = new URLSearchParams({ advertiser_id: account.platformAccountId, identity_type: 'CUSTOMIZED_USER' });
    const read = this.client
      .call<{ identity_list?: Array<{ identity_id: string }> }>(`/identity/get/?${query}`, { accessToken: account.credentials.accessToken })
      .then((data): AdIdentity => {
        const first = data.identity_list?.[0];
        if (!first)
          throw new AdRefused(null, 'The advertiser has no custom identity for its ads to show: create one in TikTok Ads Manager first.');
        return { id: first.identity_id, type: 'CUSTOMIZED_USER' };
      });
    read.catch(() => this.identities.delete(account.platformAccountId));
    this.identities.set(account.platformAccountId, read);
    return read;
  }

  /** The advertiser's countries: location id → ISO code (`tool/region` at country level), kept once read. */
  countryIds(account: AdapterAccount): Promise<Map<string, string>> {
    const kept = this.countries.get(account.platformAccountId);
    if (kept) return kept;
    const query = new URLSearchParams({
      advertiser_id: account.platformAccountId,
      placements: JSON.stringify(['PLACEMENT_TIKTOK']),
      objective_type: 'TRAFFIC',
      level_range: 'TO_COUNTRY',
    });
    const read = this.client
      .call<{ region_info?: Array<{ location_id: string; region_code?: string; level?: string }> }>(`/tool/region/?${query}`, {
        accessToken: account.credentials.accessToken,
      })
      .then(
        (data) =>
          new Map(
            (data.region_info ?? [])
              .filter((r) => r.level === 'COUNTRY' && r.region_code)
              .map((r) => [String(r.location_id), r.region_code!]),
          ),
      );
    read.catch(() => this.countries.delete(account.platformAccountId));
    this.countries.set(account.platformAccountId, read);
    return read;
  }
}

/** ISO code → location id. */
const byCode = (ids: Map<string, string>) => new Map([...ids].map(([id, code]) => [code, id]));
