import { graphTime } from './graph.js';
import type { SocialState } from './state.js';

/** The Marketing API's objects kept by the sandbox; `adcreative`s have no status of their own to derive. */
export type AdObjectKind = 'campaign' | 'adset' | 'ad' | 'adcreative';
export type ConfiguredStatus = 'ACTIVE' | 'PAUSED' | 'ARCHIVED' | 'DELETED';
/** Where an ad is in the platform's review: new and changed ads wait in `PENDING_REVIEW` until a person decides. */
export type ReviewState = 'PENDING_REVIEW' | 'APPROVED' | 'DISAPPROVED';

/** A delivery problem on an object, as `issues_info` lists it. */
export interface AdIssue {
  level: 'CAMPAIGN' | 'AD_SET' | 'AD' | 'CREATIVE';
  error_code: number;
  error_summary: string;
  error_message: string;
}

/**
 * One campaign, ad set, ad or creative. `fields` are the Graph's own (name, objective, daily_budget, targeting …) as
 * the platform stores them; what the platform derives (effective status, review, issues) is kept beside them.
 */
export interface AdObject {
  kind: AdObjectKind;
  id: string;
  accountId: string;
  /** The campaign of an ad set, the ad set of an ad; null for campaigns and creatives. */
  parentId: string | null;
  status: ConfiguredStatus;
  fields: Record<string, unknown>;
  /** Ads only: the review of what the ad shows; null elsewhere. */
  review: ReviewState | null;
  /** Why an ad was disapproved (`ad_review_feedback`), when it was. */
  reviewFeedback: string | null;
  issues: AdIssue[];
  /** The object this one is a copy of (`POST /{id}/copies`), if it is one. */
  sourceId?: string;
  createdAt: number;
  updatedAt: number;
}

/** What the people's controls can make the next create call on an ad account do. */
export type MarketingFault = { kind: 'lose_answer'; edge?: 'campaigns' | 'adsets' | 'ads' | 'adcreatives' | 'copies' };

/** What the Marketing API keeps across a restart (faults waiting are not kept). */
export interface MarketingState {
  objects: Map<string, AdObject>;
}

/** Meta's display names of review states (`in_process_ad_objects.status_name` words). */
const STATUS_NAMES: Record<string, string> = {
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  CAMPAIGN_PAUSED: 'Campaign paused',
  ADSET_PAUSED: 'Ad set paused',
  PENDING_REVIEW: 'Pending review',
  DISAPPROVED: 'Disapproved',
  WITH_ISSUES: 'With issues',
  PENDING_BILLING_INFO: 'Pending billing info',
  ARCHIVED: 'Archived',
  DELETED: 'Deleted',
};

/**
 * The ad accounts' campaign trees: campaigns, their ad sets, their ads, and the creatives ads show, with the
 * effective status the platform derives from each object's own status, its parents', the ad's review, its issues
 * and the ad account's billing. The marketing part serves them over the Graph; other parts (creatives, the review
 * controls and their `ad_account` webhooks) read and move them through here.
 */
export class AdObjects {
  readonly objects = new Map<string, AdObject>();
  private readonly faults = new Map<string, MarketingFault[]>();

  constructor(private readonly state: SocialState) {}

  restore(kept: MarketingState | undefined): void {
    for (const [id, object] of kept?.objects ?? []) this.objects.set(id, object);
  }

  kept(): MarketingState {
    return { objects: this.objects };
  }

  add(kind: AdObjectKind, accountId: string, parentId: string | null, status: ConfiguredStatus, fields: Record<string, unknown>): AdObject {
    const now = Date.now();
    const object: AdObject = {
      kind,
      id: this.state.newId(),
      accountId,
      parentId,
      status,
      fields,
      review: kind === 'ad' ? 'PENDING_REVIEW' : null,
      reviewFeedback: null,
      issues: [],
      createdAt: now,
      updatedAt: now,
    };
    this.objects.set(object.id, object);
    return object;
  }

  /**
   * A copy of `source` under `parentId` (its own parent when null): every field it has, `name` and `status` as
   * given, its review begun anew; an ad set's start in the past becomes now, as the platform moves it.
   */
  copy(source: AdObject, parentId: string | null, status: ConfiguredStatus, name: string): AdObject {
    const fields: Record<string, unknown> = { ...structuredClone(source.fields), name };
    if (source.kind === 'adset' && Date.parse(String(fields.start_time)) < Date.now()) fields.start_time = graphTime(Date.now());
    const copy = this.add(source.kind, source.accountId, parentId ?? source.parentId, status, fields);
    copy.sourceId = source.id;
    return copy;
  }

  /** An object of this kind (any kind when absent) in the ad account, deleted ones too. */
  find(id: string, kind?: AdObjectKind): AdObject | undefined {
    const object = this.objects.get(id);
    return object && (!kind || object.kind === kind) ? object : undefined;
  }

  /** The campaign of an ad set or an ad; the campaign itself. */
  campaignOf(object: AdObject): AdObject | undefined {
    if (object.kind === 'campaign') return object;
    const parent = object.parentId ? this.objects.get(object.parentId) : undefined;
    return parent ? this.campaignOf(parent) : undefined;
  }

  children(object: AdObject): AdObject[] {
    return [...this.objects.values()].filter((child) => child.parentId === object.id);
  }

  /** Deleting an object deletes what is in it; all stay readable as `DELETED`. */
  remove(object: AdObject): void {
    object.status = 'DELETED';
    object.updatedAt = Date.now();
    for (const child of this.children(object)) this.remove(child);
  }

  /**
   * The status the platform computes: deleted and archived first, then the object's own pause, the ad's review,
   * its parents' pauses, its delivery problems, and the ad account's billing.
   */
  effectiveStatus(object: AdObject): string {
    if (object.status === 'DELETED' || object.status === 'ARCHIVED') return object.status;
    if (object.status === 'PAUSED') return 'PAUSED';
    if (object.review === 'DISAPPROVED') return 'DISAPPROVED';
    if (object.review === 'PENDING_REVIEW') return 'PENDING_REVIEW';
    const adset = object.kind === 'ad' ? this.objects.get(object.parentId ?? '') : undefined;
    const campaign = this.campaignOf(object);
    if (campaign && campaign !== object && campaign.status !== 'ACTIVE') return 'CAMPAIGN_PAUSED';
    if (adset && adset.status !== 'ACTIVE') return 'ADSET_PAUSED';
    if (object.issues.length > 0) return 'WITH_ISSUES';
    if (this.state.adAccounts.get(object.accountId)?.status === 3) return 'PENDING_BILLING_INFO';
    return 'ACTIVE';
  }

  statusName(object: AdObject): string {
    return STATUS_NAMES[this.effectiveStatus(object)] ?? this.effectiveStatus(object);
  }

  /**
   * Moves an ad's review (the review controls): approved, disapproved with the reviewer's words, or back to
   * pending after a change. Answers the effective status before and after, for the webhook that tells it.
   */
  setReview(ad: AdObject, review: ReviewState, feedback: string | null = null): { before: string; after: string } {
    const before = this.effectiveStatus(ad);
    ad.review = review;
    ad.reviewFeedback = review === 'DISAPPROVED' ? (feedback ?? 'The ad does not follow the advertising policies.') : null;
    ad.updatedAt = Date.now();
    return { before, after: this.effectiveStatus(ad) };
  }

  /** The object as the Graph shows it, every field (the caller picks those asked for). */
  view(object: AdObject): Record<string, unknown> {
    const effective = this.effectiveStatus(object);
    const common = {
      ...object.fields,
      id: object.id,
      account_id: object.accountId.slice(4),
      created_time: graphTime(object.createdAt),
      updated_time: graphTime(object.updatedAt),
    };
    if (object.kind === 'adcreative') return { ...common, status: object.status };
    const campaign = this.campaignOf(object);
    return {
      ...common,
      status: object.status,
      configured_status: object.status,
      effective_status: effective,
      issues_info: object.issues,
      ...(object.kind === 'adset' ? { campaign_id: object.parentId } : {}),
      ...(object.kind === 'ad'
        ? {
            adset_id: object.parentId,
            campaign_id: campaign?.id,
            creative: { id: (object.fields.creative as { creative_id?: string } | undefined)?.creative_id },
            preview_shareable_link: `https://social.example/ads/preview/${object.id}`,
            ...(object.reviewFeedback ? { ad_review_feedback: { global: { 'Ad Policy': object.reviewFeedback } } } : {}),
          }
        : {}),
    };
  }

  addFaults(accountId: string, faults: MarketingFault[]): MarketingFault[] {
    this.faults.set(accountId, [...(this.faults.get(accountId) ?? []), ...faults]);
    return this.faults.get(accountId)!;
  }

  /** The first fault waiting for this ad account's `edge`, taken. */
  takeFault(accountId: string, edge: string): MarketingFault | undefined {
    const list = this.faults.get(accountId) ?? [];
    const index = list.findIndex((fault) => !fault.edge || fault.edge === edge);
    return index < 0 ? undefined : list.splice(index, 1)[0];
  }
}
