import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { TREE_SUBCODES } from '../../../platforms/social-network/ad-rules.js';
import type { AdObject, AdObjectKind, ConfiguredStatus, MarketingFault, MarketingState } from '../ad-objects.js';
import {
  adsetRefusal,
  campaignRefusal,
  type GraphTargeting,
  jsonParam,
  type MarketingRefusal,
  targetingRefusal,
} from '../marketing-rules.js';
import { graphTime } from '../graph.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';
import type { AdAccount, Token } from '../state.js';

const EDGES: Record<string, Exclude<AdObjectKind, never>> = {
  campaigns: 'campaign',
  adsets: 'adset',
  ads: 'ad',
  adcreatives: 'adcreative',
};
const FALLBACK_FIELDS: Record<AdObjectKind, string> = { campaign: 'name', adset: 'name', ad: 'name', adcreative: 'name' };
/** What stays as the caller sent it on each kind (the rest is derived: status, parents, review). */
const KEPT: Record<AdObjectKind, readonly string[]> = {
  campaign: [
    'name',
    'objective',
    'special_ad_categories',
    'special_ad_category_country',
    'daily_budget',
    'lifetime_budget',
    'bid_strategy',
    'is_adset_budget_sharing_enabled',
    'start_time',
    'stop_time',
  ],
  adset: [
    'name',
    'daily_budget',
    'lifetime_budget',
    'billing_event',
    'optimization_goal',
    'bid_strategy',
    'bid_amount',
    'targeting',
    'promoted_object',
    'dsa_beneficiary',
    'dsa_payor',
    'start_time',
    'end_time',
  ],
  ad: ['name', 'creative', 'url_tags'],
  adcreative: ['name', 'object_story_id', 'object_story_spec', 'url_tags'],
};
const JSON_FIELDS = new Set([
  'special_ad_categories',
  'special_ad_category_country',
  'targeting',
  'promoted_object',
  'creative',
  'object_story_spec',
]);
const NUMBER_FIELDS = new Set(['daily_budget', 'lifetime_budget', 'bid_amount']);
/** The most objects one synchronous copy makes (a deep copy of more is refused). */
const COPY_LIMIT = 3;
/** Ad account statuses that run no ads: disabled, unsettled, closed. */
const NOT_RUNNING = new Set([2, 3, 101]);

/** A Graph form's members of `kind`, in the types the platform keeps (numbers, parsed JSON). */
function kept(kind: AdObjectKind, p: Record<string, string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of KEPT[kind]) {
    const value = p[name];
    if (value === undefined || value === '') continue;
    fields[name] = JSON_FIELDS.has(name)
      ? jsonParam(value)
      : NUMBER_FIELDS.has(name)
        ? Number(value)
        : name === 'is_adset_budget_sharing_enabled'
          ? value === 'true'
          : value;
  }
  return fields;
}

/**
 * The Marketing API's campaign tree over the Graph (v23+ rules, errors with `error_user_title`/`error_user_msg`):
 * `GET|POST /act_{id}/campaigns|adsets|ads|adcreatives` (`effective_status`, `filtering`, `execution_options=
 * ["validate_only"]`), `GET /{campaign}/adsets|ads`, `GET /{adset}/ads`, `GET|POST|DELETE /{object}` (a deleted
 * object stays readable as `DELETED`), `GET /act_{id}` (with its `default_dsa_*`). New ads wait in review (see
 * `AdObjects.setReview`). People's controls: an ad account's settings, faults (a lost answer after creating).
 */
export const marketingPart = defineSocialPart<MarketingState>({ key: 'marketing', mount: mountMarketing });

function mountMarketing(router: Router, { state, graph, ads, base }: SocialNetwork, restored: MarketingState | undefined) {
  ads.restore(restored);

  /** The person's token with `permission` on an ad account they manage; else the refusal is written. */
  const adAccountToken = (ctx: RouterContext, accountId: string, permission: 'ads_management' | 'ads_read'): Token | null => {
    const token = graph.userToken(ctx);
    if (!token) return null;
    const account = state.adAccounts.get(accountId);
    if (!account || !state.users.get(token.userId)!.adAccountIds.includes(accountId)) graph.unknownObject(ctx, accountId);
    else if (!state.granted(token, 'ads_management') && (permission === 'ads_management' || !state.granted(token, 'ads_read')))
      graph.missingPermission(ctx, permission);
    else return token;
    return null;
  };

  const refuse = (ctx: RouterContext, refusal: MarketingRefusal) =>
    graph.fail(ctx, 400, 100, 'Invalid parameter', { subcode: refusal.subcode, user: { title: refusal.title, message: refusal.message } });

  const disabled = (ctx: RouterContext, account: AdAccount): boolean => {
    if (!NOT_RUNNING.has(account.status)) return false;
    graph.fail(ctx, 400, 100, 'Invalid parameter', {
      subcode: TREE_SUBCODES.accountDisabled,
      user: { title: 'Ad Account Disabled', message: `The ad account ${account.id} cannot run ads (account_status ${account.status}).` },
    });
    return true;
  };

  /** The object's refusal on creation (its parent in the same ad account, the platform's rules); null when it may be made. */
  const creationRefusal = (
    kind: AdObjectKind,
    p: Record<string, string>,
    account: AdAccount,
  ): MarketingRefusal | { parent: AdObject | null } => {
    if (kind === 'campaign') return campaignRefusal(p, account) ?? { parent: null };
    if (kind === 'adcreative')
      return p.object_story_id || p.object_story_spec
        ? { parent: null }
        : { title: 'Creative Content Required', message: 'Give object_story_id or object_story_spec.' };
    const parentKind = kind === 'adset' ? 'campaign' : 'adset';
    const parentId = kind === 'adset' ? p.campaign_id : p.adset_id;
    const parent = ads.find(parentId ?? '', parentKind);
    if (!parent || parent.accountId !== account.id || parent.status === 'DELETED')
      return {
        subcode: TREE_SUBCODES.parentMissing,
        title: 'Parent Not Found',
        message: `The ${parentKind} ${parentId ?? '(none)'} does not exist in this ad account.`,
      };
    if (kind === 'adset') return adsetRefusal(p, parent, account) ?? { parent };
    const creativeId = jsonParam<{ creative_id?: string }>(p.creative)?.creative_id;
    const creative = ads.find(creativeId ?? '', 'adcreative');
    if (!creative || creative.accountId !== account.id)
      return { title: 'Creative Not Found', message: `The creative ${creativeId ?? '(none)'} does not exist in this ad account.` };
    return p.name ? { parent } : { title: 'Missing Name', message: 'The parameter name is required.' };
  };

  router.post(`${base}/:accountId/:edge`, async (ctx, next) => {
    const kind = EDGES[ctx.params.edge!];
    const accountId = ctx.params.accountId!;
    if (!kind || !accountId.startsWith('act_')) return next();
    if (!adAccountToken(ctx, accountId, 'ads_management')) return;
    const account = state.adAccounts.get(accountId)!;
    if (disabled(ctx, account)) return;
    const p = graph.params(ctx);
    const checked = creationRefusal(kind, p, account);
    if (!('parent' in checked)) return refuse(ctx, checked);
    if ((jsonParam<string[]>(p.execution_options) ?? []).includes('validate_only')) return void (ctx.body = { success: true });
    const status = (p.status as ConfiguredStatus | undefined) ?? (kind === 'adcreative' ? 'ACTIVE' : 'PAUSED');
    const fields = kept(kind, p);
    // An ad set without a start starts now, as the platform keeps it.
    if (kind === 'adset') fields.start_time ??= graphTime(Date.now());
    const object = ads.add(kind, accountId, checked.parent?.id ?? null, status, fields);
    if (ads.takeFault(accountId, ctx.params.edge!)) {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = { id: object.id };
  });

  /** What a list's `effective_status` and `filtering` keep: by default neither deleted nor archived objects. */
  const listed = (ctx: RouterContext, kind: AdObjectKind, under: (object: AdObject) => boolean) => {
    const p = graph.params(ctx);
    const statuses = jsonParam<string[]>(p.effective_status);
    const filters = jsonParam<Array<{ field: string; operator: string; value: unknown }>>(p.filtering) ?? [];
    const matches = (object: AdObject) => {
      const view = ads.view(object);
      const effective = String(view.effective_status ?? object.status);
      if (statuses ? !statuses.includes(effective) : effective === 'DELETED' || effective === 'ARCHIVED') return false;
      return filters.every(({ field, operator, value }) => {
        const actual = field === 'campaign.id' ? view.campaign_id : field === 'adset.id' ? view.adset_id : view[field];
        if (operator === 'IN') return Array.isArray(value) && value.map(String).includes(String(actual));
        if (operator === 'EQUAL') return String(actual) === String(value);
        if (operator === 'GREATER_THAN')
          return Math.floor((field === 'updated_time' ? object.updatedAt : object.createdAt) / 1000) > Number(value);
        return true;
      });
    };
    const items = [...ads.objects.values()]
      .filter((object) => object.kind === kind && under(object) && matches(object))
      .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
      .map((object) => graph.pick(ads.view(object), p.fields, FALLBACK_FIELDS[kind]));
    ctx.body = graph.list(ctx, items, `${ctx.origin}${ctx.path}`);
  };

  router.get(`${base}/:parentId/:edge`, (ctx, next) => {
    const kind = EDGES[ctx.params.edge!];
    const parentId = ctx.params.parentId!;
    if (!kind) return next();
    if (parentId.startsWith('act_')) {
      if (!adAccountToken(ctx, parentId, 'ads_read')) return;
      return listed(ctx, kind, (object) => object.accountId === parentId);
    }
    const parent = ads.find(parentId);
    if (!parent || parent.kind === 'ad' || parent.kind === 'adcreative' || kind === 'campaign' || kind === 'adcreative') return next();
    if (!adAccountToken(ctx, parent.accountId, 'ads_read')) return;
    listed(ctx, kind, (object) => object.parentId === parent.id || (kind === 'ad' && ads.campaignOf(object) === parent));
  });

  /** An ad account (`default_dsa_beneficiary`, `default_dsa_payor`), or one of its objects, deleted ones too. */
  router.get(`${base}/:id`, (ctx, next) => {
    const id = ctx.params.id!;
    const account = state.adAccounts.get(id);
    const object = ads.find(id);
    if (!account && !object) return next();
    if (!adAccountToken(ctx, account?.id ?? object!.accountId, 'ads_read')) return;
    const fields = graph.params(ctx).fields;
    if (object) return void (ctx.body = graph.pick(ads.view(object), fields, FALLBACK_FIELDS[object.kind]));
    ctx.body = graph.pick(
      {
        id: account!.id,
        account_id: account!.id.slice(4),
        name: account!.name,
        currency: account!.currency,
        account_status: account!.status,
        timezone_name: account!.timezone,
        default_dsa_beneficiary: account!.defaultDsaBeneficiary ?? undefined,
        default_dsa_payor: account!.defaultDsaPayor ?? undefined,
      },
      fields,
      'account_id',
    );
  });

  /** Changes an object: its status (`DELETED` deletes), name, budget, targeting …, under the rules of its creation. */
  router.post(`${base}/:id`, (ctx, next) => {
    const object = ads.find(ctx.params.id!);
    if (!object || object.kind === 'adcreative') return next();
    if (!adAccountToken(ctx, object.accountId, 'ads_management')) return;
    const account = state.adAccounts.get(object.accountId)!;
    if (disabled(ctx, account)) return;
    const p = graph.params(ctx);
    if (object.status === 'DELETED' || (object.status === 'ARCHIVED' && p.status !== 'DELETED'))
      return refuse(ctx, {
        subcode: TREE_SUBCODES.objectDeleted,
        title: 'Object Cannot Be Changed',
        message: `The ${object.kind} is ${object.status.toLowerCase()} and cannot be changed.`,
      });
    if ((p.daily_budget && object.fields.lifetime_budget !== undefined) || (p.lifetime_budget && object.fields.daily_budget !== undefined))
      return refuse(ctx, {
        subcode: TREE_SUBCODES.budgetTypeSwitch,
        title: 'Budget Type Cannot Change',
        message: 'A daily budget cannot become a lifetime budget, nor the other way round.',
      });
    const change = kept(object.kind, p);
    const campaign = ads.campaignOf(object);
    if (object.kind === 'adset' && change.targeting && campaign) {
      const refusal = targetingRefusal(change.targeting as GraphTargeting, campaign, { ...object.fields, ...p } as Record<string, string>);
      if (refusal) return refuse(ctx, refusal);
    }
    if (p.status === 'DELETED') ads.remove(object);
    else if (p.status) object.status = p.status as ConfiguredStatus;
    for (const [name, value] of Object.entries(change)) object.fields[name] = value;
    for (const name of ['end_time', 'stop_time', 'bid_amount', 'url_tags']) if (p[name] === '') delete object.fields[name];
    // A new creative, targeting or URL sends the ad (or the ad set's ads) back to review.
    if (object.kind === 'ad' && (change.creative || change.url_tags)) ads.setReview(object, 'PENDING_REVIEW');
    object.updatedAt = Date.now();
    ctx.body = { success: true };
  });

  router.delete(`${base}/:id`, (ctx, next) => {
    const object = ads.find(ctx.params.id!);
    if (!object) return next();
    if (!adAccountToken(ctx, object.accountId, 'ads_management')) return;
    ads.remove(object);
    ctx.body = { success: true };
  });

  /**
   * `POST /{object}/copies`: the object copied under its parent or the `campaign_id`/`adset_id` given, with what is
   * in it when `deep_copy` (at most three objects in all: more is the platform's refusal of a synchronous copy),
   * `status_option` (PAUSED by default) and `rename_options` (without them the top copy's name gets " - Copy").
   * Answers `copied_{kind}_id` and every object copied.
   */
  router.post(`${base}/:id/copies`, (ctx, next) => {
    const source = ads.find(ctx.params.id!);
    if (!source || source.kind === 'adcreative') return next();
    if (!adAccountToken(ctx, source.accountId, 'ads_management')) return;
    const account = state.adAccounts.get(source.accountId)!;
    if (disabled(ctx, account)) return;
    const p = graph.params(ctx);
    if (source.status === 'DELETED')
      return refuse(ctx, {
        subcode: TREE_SUBCODES.objectDeleted,
        title: 'Object Cannot Be Copied',
        message: `The ${source.kind} is deleted.`,
      });
    const parentKind = source.kind === 'adset' ? 'campaign' : source.kind === 'ad' ? 'adset' : null;
    const parentId = (source.kind === 'adset' ? p.campaign_id : p.adset_id) || source.parentId;
    const parent = parentKind ? ads.find(parentId ?? '', parentKind) : undefined;
    if (parentKind && (!parent || parent.accountId !== account.id || parent.status === 'DELETED'))
      return refuse(ctx, {
        subcode: TREE_SUBCODES.parentMissing,
        title: 'Parent Not Found',
        message: `The ${parentKind} ${parentId ?? '(none)'} does not exist in this ad account.`,
      });
    const deep = p.deep_copy === 'true';
    const inIt = (object: AdObject): AdObject[] =>
      ads.children(object).flatMap((child) => (child.status === 'DELETED' ? [] : [child, ...inIt(child)]));
    if (deep && 1 + inIt(source).length > COPY_LIMIT)
      return refuse(ctx, {
        subcode: TREE_SUBCODES.copyLimit,
        title: 'Too Many Objects To Copy',
        message: `A copy made at once has at most ${COPY_LIMIT} objects: copy what is in it one by one, or in an async batch.`,
      });
    const option = p.status_option ?? 'PAUSED';
    if (!['ACTIVE', 'PAUSED', 'INHERITED_FROM_SOURCE'].includes(option))
      return refuse(ctx, { title: 'Invalid Status Option', message: 'status_option must be ACTIVE, PAUSED or INHERITED_FROM_SOURCE.' });
    const rename = jsonParam<{ rename_strategy?: string; rename_prefix?: string; rename_suffix?: string }>(p.rename_options);
    const strategy = rename?.rename_strategy ?? 'ONLY_TOP_LEVEL_RENAME';
    const named = (object: AdObject, top: boolean) =>
      strategy === 'DEEP_RENAME' || (strategy === 'ONLY_TOP_LEVEL_RENAME' && top)
        ? `${rename?.rename_prefix ?? ''}${String(object.fields.name)}${rename ? (rename.rename_suffix ?? '') : ' - Copy'}`
        : String(object.fields.name);
    const copied: Array<{ ad_object_type: string; source_id: string; copied_id: string }> = [];
    const copyUnder = (object: AdObject, under: string | null, top: boolean): AdObject => {
      const status = option === 'INHERITED_FROM_SOURCE' ? (object.status === 'ACTIVE' ? 'ACTIVE' : 'PAUSED') : (option as ConfiguredStatus);
      const copy = ads.copy(object, under, status, named(object, top));
      copied.push({ ad_object_type: object.kind, source_id: object.id, copied_id: copy.id });
      if (deep) for (const child of ads.children(object)) if (child.status !== 'DELETED') copyUnder(child, copy.id, false);
      return copy;
    };
    const top = copyUnder(source, parent?.id ?? null, true);
    if (ads.takeFault(account.id, 'copies')) {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = { [`copied_${source.kind}_id`]: top.id, ad_object_ids: copied };
  });

  /** `GET /{object}/copies`: the copies made of an object, as its lists show objects. */
  router.get(`${base}/:id/copies`, (ctx, next) => {
    const source = ads.find(ctx.params.id!);
    if (!source || source.kind === 'adcreative') return next();
    if (!adAccountToken(ctx, source.accountId, 'ads_read')) return;
    listed(ctx, source.kind, (object) => object.sourceId === source.id);
  });

  const people = '/_sandbox/social_network';
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const noAccount = (ctx: RouterContext) => {
    ctx.status = 404;
    ctx.body = { error: 'no such ad account' };
  };

  /** An ad account's settings as its owner changes them in the platform: currency, status, DSA defaults. */
  router.post(`${people}/ad-account-settings`, (ctx) => {
    const input = body(ctx) as Partial<Pick<AdAccount, 'currency' | 'status' | 'defaultDsaBeneficiary' | 'defaultDsaPayor'>> & {
      adAccountId?: string;
    };
    const account = state.adAccounts.get(String(input.adAccountId));
    if (!account) return noAccount(ctx);
    const { adAccountId: _, ...settings } = input;
    Object.assign(account, settings);
    ctx.body = account;
  });

  /** Faults for the ad account's next create calls (`lose_answer`: made, then the connection drops before the answer). */
  router.post(`${people}/marketing-faults`, (ctx) => {
    const input = body(ctx) as { adAccountId?: string; faults?: MarketingFault[] };
    if (!state.adAccounts.has(String(input.adAccountId))) return noAccount(ctx);
    ctx.body = { faults: ads.addFaults(String(input.adAccountId), input.faults ?? []) };
  });

  /** Everything in an ad account as the platform keeps it (deleted objects, review states), for tests to look at. */
  router.get(`${people}/ad-objects`, (ctx) => {
    const accountId = String(ctx.query.adAccountId ?? '');
    if (!state.adAccounts.has(accountId)) return noAccount(ctx);
    ctx.body = {
      objects: [...ads.objects.values()]
        .filter((object) => object.accountId === accountId)
        .map((object) => ({ ...object, effectiveStatus: object.kind === 'adcreative' ? null : ads.effectiveStatus(object) })),
    };
  });

  return { state: () => ads.kept() };
}
