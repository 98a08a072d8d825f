import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { adgroupRefusal, campaignRefusal, creativeRefusal, strings } from './campaign-rules.js';
import { mountCampaignControls } from './campaign-controls.js';
import { campaignLevels, type Level } from './campaign-levels.js';
import {
  type Ad,
  type AdGroup,
  apiTime,
  type Campaign,
  type CampaignTreeState,
  emptyTree,
  type OperationStatus,
  primaryOf,
  REGIONS,
} from './campaign-tree.js';
import type { DEMO_ADVERTISERS } from './demo.js';
import { identityRefusal } from './identity-routes.js';

type Advertiser = (typeof DEMO_ADVERTISERS)[number];
type Body = Record<string, unknown>;

/** What the campaign tree's routes use of the rest of the Business API: its envelope, its tokens, its advertisers. */
export interface BusinessApi {
  answer(ctx: RouterContext, code: number, message: string, data?: unknown): void;
  /** The advertiser the token reaches, by id; else the refusal answered already (40105, 40001). */
  advertiser(ctx: RouterContext, id: unknown): Advertiser | null;
}

/**
 * `campaign|adgroup|ad` `/get/`, `/create/`, `/update/` and `/status/update/` of the Business API v1.3: JSON bodies,
 * the envelope, `page_info` paging (page from 1, page_size 1-1000), `filtering` as a JSON object in the query.
 * A campaign's name is unique among the advertiser's campaigns not deleted. Deleting a campaign or an ad group deletes
 * what is under it (their `secondary_status` says why); a deleted object takes no change. A new ad is reviewed
 * (`AD_STATUS_AUDIT`) until the people's control rules on it. Faults: `fail-next` (the next call of the tree, or of
 * one `path` of it, answers this code: 40100 throttling, 50002 an outage), `lose-next` (the next create, or the
 * next of one `path`, is done and its answer lost). A Spark ad (`tiktok_item_id`) is checked by `sparkRefusal`.
 */
export function mountCampaignTree(
  router: Router,
  api: BusinessApi,
  base: string,
  sparkRefusal: (creative: Body, advertiserId: string) => string | null,
  restored?: CampaignTreeState,
): { state(): CampaignTreeState } {
  const tree = restored ?? emptyTree();
  const newId = () => String((tree.nextId += 1n));
  const now = () => apiTime(Date.now());

  const { levels, views } = campaignLevels(tree);
  const { campaign: campaignView, adgroup: adgroupView, ad: adView } = views;

  /** The advertiser a call names, after an injected failure has had its turn; else the answer is written. */
  const caller = (ctx: RouterContext, body: Body): Advertiser | null => {
    if (tree.failNext && (!tree.failNext.path || ctx.path.endsWith(`/${tree.failNext.path}`))) {
      api.answer(ctx, tree.failNext.code, tree.failNext.message);
      tree.failNext = null;
      return null;
    }
    return api.advertiser(ctx, body.advertiser_id);
  };
  /** A POST of the tree: its JSON body and the advertiser it names, once faults and the token have had their say. */
  const write = (path: string, handle: (ctx: RouterContext, body: Body, advertiser: Advertiser) => void) =>
    router.post(`${base}/${path}`, (ctx) => {
      const body = (ctx.request.body ?? {}) as Body;
      const advertiser = caller(ctx, body);
      if (advertiser) handle(ctx, body, advertiser);
    });
  const bad = (ctx: RouterContext, message: string) => api.answer(ctx, 40002, message);
  /** A create done: its answer, unless the people set it to be lost (the connection drops). */
  const created = (ctx: RouterContext, data: Body) => {
    if (!tree.loseNext || (tree.loseNext.path && !ctx.path.endsWith(`/${tree.loseNext.path}`))) return api.answer(ctx, 0, 'OK', data);
    tree.loseNext = null;
    ctx.req.socket.destroy();
  };
  /** The advertiser's object at a level, not deleted (its parents neither); else a 40002 answered. */
  function live<T extends Campaign | AdGroup | Ad>(ctx: RouterContext, level: Level<T>, id: unknown, advertiser: Advertiser): T | null {
    const object = level.objects.get(String(id ?? ''));
    if (!object || object.advertiser_id !== advertiser.advertiser_id) {
      bad(ctx, `${level.id}: The object does not exist.`);
      return null;
    }
    if (primaryOf(level.secondary(object)) === 'STATUS_DELETE') {
      bad(ctx, `${level.id}: The object has been deleted and cannot be changed.`);
      return null;
    }
    return object;
  }

  for (const [name, level] of Object.entries(levels) as Array<[string, Level<Campaign | AdGroup | Ad>]>) {
    router.get(`${base}/${name}/get/`, (ctx) => {
      const q = ctx.query as Record<string, string | undefined>;
      const advertiser = caller(ctx, q);
      if (!advertiser) return;
      let filtering: Body;
      try {
        filtering = JSON.parse(q.filtering ?? '{}') as Body;
      } catch {
        return bad(ctx, 'filtering: Must be a JSON object.');
      }
      const page = Number(q.page ?? 1);
      const size = Number(q.page_size ?? 10);
      if (!Number.isInteger(page) || page < 1) return bad(ctx, 'page: Must be an integer of at least 1.');
      if (!Number.isInteger(size) || size < 1 || size > 1000) return bad(ctx, 'page_size: Must be an integer from 1 to 1000.');
      let fields: string[] | null = null;
      try {
        fields = q.fields ? (JSON.parse(q.fields) as string[]) : null;
      } catch {
        fields = null;
      }
      if (q.fields && (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string')))
        return bad(ctx, 'fields: Must be a JSON array of field names.');
      const status = (filtering.secondary_status as string | undefined) ?? level.notDeleted;
      const primary = filtering.primary_status as string | undefined;
      const since = filtering.creation_filter_start_time as string | undefined;
      const until = filtering.creation_filter_end_time as string | undefined;
      const matching = [...level.objects.values()].filter((object) => {
        if (object.advertiser_id !== advertiser.advertiser_id) return false;
        const secondary = level.secondary(object);
        if (status === level.notDeleted ? primaryOf(secondary) === 'STATUS_DELETE' : status !== level.all && secondary !== status)
          return false;
        if (
          primary &&
          primary !== 'STATUS_ALL' &&
          (primary === 'STATUS_NOT_DELETE' ? primaryOf(secondary) === 'STATUS_DELETE' : primaryOf(secondary) !== primary)
        )
          return false;
        if ((since && object.create_time < since) || (until && object.create_time > until)) return false;
        return Object.entries(level.filters).every(([field, test]) => filtering[field] === undefined || test(object, filtering[field]));
      });
      // Newest first, as the platform lists them.
      const idOf = (object: object) => String((object as Body)[level.id]);
      matching.sort((a, b) => b.create_time.localeCompare(a.create_time) || idOf(b).localeCompare(idOf(a)));
      // `fields` names what each object carries; without it, every field.
      const list = matching
        .slice((page - 1) * size, page * size)
        .map(level.view)
        .map((view) =>
          fields ? Object.fromEntries(fields.filter((field) => field in view).map((field) => [field, (view as Body)[field]])) : view,
        );
      api.answer(ctx, 0, 'OK', {
        list,
        page_info: { page, page_size: size, total_number: matching.length, total_page: Math.ceil(matching.length / size) },
      });
    });

    write(`${name}/status/update/`, (ctx, body, advertiser) => {
      const ids = body[level.ids];
      const operation = body.operation_status as OperationStatus;
      if (!strings(ids) || ids.length === 0 || ids.length > 20) return bad(ctx, `${level.ids}: Must be a list of 1-20 ids.`);
      if (!['ENABLE', 'DISABLE', 'DELETE'].includes(operation)) return bad(ctx, 'operation_status: Must be ENABLE, DISABLE or DELETE.');
      const objects = ids.map((id) => level.objects.get(id));
      const missing = ids.find((_, i) => objects[i]?.advertiser_id !== advertiser.advertiser_id);
      if (missing) return bad(ctx, `${level.ids}: ${missing} does not exist.`);
      // Deleting again is no change; anything else on a deleted object is refused.
      const deleted = objects.find((o) => primaryOf(level.secondary(o!)) === 'STATUS_DELETE' && operation !== 'DELETE');
      if (deleted)
        return bad(ctx, `${level.ids}: ${String((deleted as unknown as Body)[level.id])} has been deleted; its status cannot change.`);
      for (const object of objects) {
        if (object!.operation_status === 'DELETE') continue;
        object!.operation_status = operation;
        (object as { modify_time: string }).modify_time = now();
      }
      api.answer(ctx, 0, 'OK', {
        [level.ids]: ids,
        status: operation,
        [`${name}_list`]: ids.map((id) => ({ [level.id]: id, status: level.objects.get(id)!.operation_status })),
      });
    });
  }

  write(`campaign/create/`, (ctx, body, advertiser) => {
    const refusal = campaignRefusal(body, advertiser.currency, true);
    if (refusal) return bad(ctx, refusal);
    if (nameTaken(body.campaign_name as string, advertiser.advertiser_id))
      return bad(ctx, 'campaign_name: The campaign name already exists.');
    const campaign: Campaign = {
      advertiser_id: advertiser.advertiser_id,
      campaign_id: newId(),
      campaign_name: body.campaign_name as string,
      objective_type: body.objective_type as string,
      budget_mode: (body.budget_mode as string | undefined) ?? 'BUDGET_MODE_INFINITE',
      budget: (body.budget as number | undefined) ?? 0,
      budget_optimize_on: body.budget_optimize_on === true,
      special_industries: (body.special_industries as string[] | undefined) ?? [],
      operation_status: body.operation_status === 'DISABLE' ? 'DISABLE' : 'ENABLE',
      create_time: now(),
      modify_time: now(),
    };
    tree.campaigns.set(campaign.campaign_id, campaign);
    created(ctx, campaignView(campaign));
  });

  write(`campaign/update/`, (ctx, body, advertiser) => {
    const campaign = live(ctx, levels.campaign, body.campaign_id, advertiser);
    if (!campaign) return;
    const refusal = campaignRefusal({ budget_mode: campaign.budget_mode, ...body }, advertiser.currency, false);
    if (refusal) return bad(ctx, refusal);
    if (
      body.campaign_name !== undefined &&
      body.campaign_name !== campaign.campaign_name &&
      nameTaken(body.campaign_name as string, advertiser.advertiser_id)
    )
      return bad(ctx, 'campaign_name: The campaign name already exists.');
    Object.assign(campaign, pick(body, ['campaign_name', 'budget', 'budget_mode', 'special_industries']), { modify_time: now() });
    api.answer(ctx, 0, 'OK', campaignView(campaign));
  });

  write(`adgroup/create/`, (ctx, body, advertiser) => {
    const campaign = live(ctx, levels.campaign, body.campaign_id, advertiser);
    if (!campaign) return;
    const refusal = adgroupRefusal(body, campaign, advertiser.currency, true);
    if (refusal) return bad(ctx, refusal);
    const adgroup: AdGroup = {
      advertiser_id: advertiser.advertiser_id,
      campaign_id: campaign.campaign_id,
      adgroup_id: newId(),
      adgroup_name: body.adgroup_name as string,
      placement_type: (body.placement_type as string | undefined) ?? 'PLACEMENT_TYPE_AUTOMATIC',
      placements: (body.placements as string[] | undefined) ?? [],
      location_ids: body.location_ids as string[],
      age_groups: (body.age_groups as string[] | undefined) ?? [],
      gender: (body.gender as string | undefined) ?? 'GENDER_UNLIMITED',
      languages: (body.languages as string[] | undefined) ?? [],
      interest_category_ids: (body.interest_category_ids as string[] | undefined) ?? [],
      audience_ids: (body.audience_ids as string[] | undefined) ?? [],
      excluded_audience_ids: (body.excluded_audience_ids as string[] | undefined) ?? [],
      budget_mode: campaign.budget_optimize_on ? 'BUDGET_MODE_INFINITE' : (body.budget_mode as string),
      budget: (body.budget as number | undefined) ?? 0,
      schedule_type: (body.schedule_type as string | undefined) ?? 'SCHEDULE_FROM_NOW',
      schedule_start_time: body.schedule_start_time as string,
      schedule_end_time: (body.schedule_end_time as string | undefined) ?? null,
      optimization_goal: body.optimization_goal as string,
      billing_event: body.billing_event as string,
      bid_type: (body.bid_type as string | undefined) ?? 'BID_TYPE_NO_BID',
      bid_price: (body.bid_price as number | undefined) ?? 0,
      operation_status: body.operation_status === 'DISABLE' ? 'DISABLE' : 'ENABLE',
      create_time: now(),
      modify_time: now(),
    };
    tree.adgroups.set(adgroup.adgroup_id, adgroup);
    created(ctx, adgroupView(adgroup));
  });

  write(`adgroup/update/`, (ctx, body, advertiser) => {
    const adgroup = live(ctx, levels.adgroup, body.adgroup_id, advertiser);
    if (!adgroup) return;
    const refusal = adgroupRefusal(body, tree.campaigns.get(adgroup.campaign_id)!, advertiser.currency, false, adgroup);
    if (refusal) return bad(ctx, refusal);
    const fields = [
      'adgroup_name',
      'location_ids',
      'age_groups',
      'gender',
      'languages',
      'interest_category_ids',
      'audience_ids',
      'excluded_audience_ids',
    ];
    Object.assign(
      adgroup,
      pick(body, [
        ...fields,
        'budget',
        'budget_mode',
        'schedule_start_time',
        'schedule_end_time',
        'schedule_type',
        'bid_type',
        'bid_price',
      ]),
      {
        modify_time: now(),
      },
    );
    api.answer(ctx, 0, 'OK', adgroupView(adgroup));
  });

  write(`ad/create/`, (ctx, body, advertiser) => {
    const adgroup = live(ctx, levels.adgroup, body.adgroup_id, advertiser);
    if (!adgroup) return;
    const creatives = body.creatives as Body[] | undefined;
    if (!Array.isArray(creatives) || creatives.length === 0 || creatives.length > 20)
      return bad(ctx, 'creatives: Must be a list of 1-20 creatives.');
    for (const creative of creatives) {
      const refusal =
        creativeRefusal(creative, true) ??
        (creative.tiktok_item_id === undefined
          ? identityRefusal(creative, advertiser.advertiser_id)
          : sparkRefusal(creative, advertiser.advertiser_id));
      if (refusal) return bad(ctx, refusal);
    }
    const ads = creatives.map((creative): Ad => ({
      advertiser_id: advertiser.advertiser_id,
      campaign_id: adgroup.campaign_id,
      adgroup_id: adgroup.adgroup_id,
      ad_id: newId(),
      ad_name: creative.ad_name as string,
      ad_format: creative.ad_format as string,
      ad_text: (creative.ad_text as string | undefined) ?? '',
      video_id: (creative.video_id as string | undefined) ?? null,
      tiktok_item_id: (creative.tiktok_item_id as string | undefined) ?? null,
      image_ids: (creative.image_ids as string[] | undefined) ?? [],
      identity_type: (creative.identity_type as string | undefined) ?? null,
      identity_id: (creative.identity_id as string | undefined) ?? null,
      call_to_action: (creative.call_to_action as string | undefined) ?? null,
      landing_page_url: (creative.landing_page_url as string | undefined) ?? null,
      utm_params: (creative.utm_params as Ad['utm_params'] | undefined) ?? [],
      operation_status: body.operation_status === 'DISABLE' ? 'DISABLE' : 'ENABLE',
      review: 'AUDIT',
      create_time: now(),
      modify_time: now(),
    }));
    for (const ad of ads) tree.ads.set(ad.ad_id, ad);
    created(ctx, { ad_ids: ads.map((ad) => ad.ad_id), creatives: ads.map(adView) });
  });

  write(`ad/update/`, (ctx, body, advertiser) => {
    const adgroup = live(ctx, levels.adgroup, body.adgroup_id, advertiser);
    if (!adgroup) return;
    const creatives = body.creatives as Body[] | undefined;
    if (!Array.isArray(creatives) || creatives.length === 0) return bad(ctx, 'creatives: Must be a list of creatives naming their ad_id.');
    const ads: Ad[] = [];
    for (const creative of creatives) {
      const ad = live(ctx, levels.ad, creative.ad_id, advertiser);
      if (!ad) return;
      if (ad.adgroup_id !== adgroup.adgroup_id) return bad(ctx, `creatives.ad_id: ${ad.ad_id} is not in the ad group.`);
      const refusal = creativeRefusal(creative, false);
      if (refusal) return bad(ctx, refusal);
      ads.push(ad);
    }
    ads.forEach((ad, i) =>
      Object.assign(
        ad,
        pick(creatives[i]!, ['ad_name', 'ad_text', 'landing_page_url', 'call_to_action', 'video_id', 'image_ids', 'utm_params']),
        {
          modify_time: now(),
        },
      ),
    );
    api.answer(ctx, 0, 'OK', { ad_ids: ads.map((ad) => ad.ad_id), creatives: ads.map(adView) });
  });

  /** The locations the advertiser may target; `level_range` `TO_COUNTRY` lists the countries alone. */
  router.get(`${base}/tool/region/`, (ctx) => {
    const q = ctx.query as Record<string, string | undefined>;
    if (!caller(ctx, q)) return;
    const regions = q.level_range === 'TO_COUNTRY' ? REGIONS.filter((region) => region.level === 'COUNTRY') : REGIONS;
    api.answer(ctx, 0, 'OK', { region_info: regions });
  });

  mountCampaignControls(router, tree, views);

  function nameTaken(name: string, advertiserId: string): boolean {
    return [...tree.campaigns.values()].some(
      (c) => c.advertiser_id === advertiserId && c.operation_status !== 'DELETE' && c.campaign_name === name,
    );
  }
  return { state: () => tree };
}

function pick(body: Body, fields: string[]): Body {
  return Object.fromEntries(fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));
}
