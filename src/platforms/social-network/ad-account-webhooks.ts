import type { GraphObjectParser } from '../meta/graph-webhook.js';

/** The kind of an ad object as our events name it (Meta's `CAMPAIGN`, `AD_SET`, `AD`, `CREATIVE`). */
export type AdObjectLevel = 'campaign' | 'adset' | 'ad' | 'creative';

/** What changed, by the field the platform notified. */
export type AdAccountChangeValue =
  | { field: 'in_process_ad_objects'; objectId: string; level: AdObjectLevel; statusName: string }
  | {
      field: 'with_issues_ad_objects';
      objectId: string;
      level: AdObjectLevel;
      errorCode: number | null;
      errorSummary: string;
      errorMessage: string;
    }
  | {
      field: 'ad_recommendations';
      objectIds: string[];
      recommendationType: string;
      recommendationMessage: string;
      recommendationStage: string | null;
      recommendationHash: string | null;
    };

/**
 * A change the ad platform notified about an ad account's objects: a status in review or delivery, a delivery
 * issue, a recommendation. Platforms send these late, twice and out of order: `at` (the platform's time of the
 * notification) orders them.
 */
export interface AdAccountChange {
  kind: 'ad_account_change';
  /** The ad account at the platform, as its connections name it (`act_<id>`). */
  platformAdAccountId: string;
  at: Date;
  change: AdAccountChangeValue;
}

declare module '../capabilities/webhooks.js' {
  interface IncomingEventKinds {
    ad_account_change: AdAccountChange;
  }
}

interface AdObjectValue {
  id?: string | number;
  level?: string;
  status_name?: string;
  error_code?: number | string;
  error_summary?: string;
  error_message?: string;
}
interface RecommendationValue {
  ad_object_ids?: Array<string | number>;
  recommendation_type?: string;
  recommendation_message?: string;
  recommendation_stage?: string;
  recommendation_hash?: string;
  recommendation_signature?: string;
}
interface AdAccountEntry {
  id?: string | number;
  time?: number;
  changes?: Array<{ field?: string; value?: AdObjectValue & RecommendationValue }>;
}

const LEVELS: Record<string, AdObjectLevel> = { CAMPAIGN: 'campaign', AD_SET: 'adset', ADSET: 'adset', AD: 'ad', CREATIVE: 'creative' };

/** The entry's id with or without `act_` (Meta sends both forms): as connections keep it. */
function adAccountIdOf(id: string | number | undefined): string | null {
  if (id === undefined || id === '') return null;
  const text = String(id);
  return text.startsWith('act_') ? text : `act_${text}`;
}

function changeOf(field: string | undefined, value: AdObjectValue & RecommendationValue): AdAccountChangeValue | null {
  if (field === 'ad_recommendations') {
    const objectIds = (value.ad_object_ids ?? []).map(String);
    if (!value.recommendation_type) return null;
    return {
      field,
      objectIds,
      recommendationType: value.recommendation_type,
      recommendationMessage: value.recommendation_message ?? '',
      recommendationStage: value.recommendation_stage ?? null,
      recommendationHash: value.recommendation_hash ?? value.recommendation_signature ?? null,
    };
  }
  const level = LEVELS[String(value.level ?? '').toUpperCase()];
  if (value.id === undefined || !level) return null;
  const objectId = String(value.id);
  if (field === 'in_process_ad_objects' && value.status_name) return { field, objectId, level, statusName: value.status_name };
  if (field !== 'with_issues_ad_objects') return null;
  const code = value.error_code === undefined ? null : Number(value.error_code);
  return {
    field,
    objectId,
    level,
    errorCode: Number.isInteger(code) ? code : null,
    errorSummary: value.error_summary ?? '',
    errorMessage: value.error_message ?? '',
  };
}

/**
 * The `ad_account` object's webhooks: `in_process_ad_objects` (a status during review or delivery),
 * `with_issues_ad_objects` (a delivery issue) and `ad_recommendations`. Entry times are seconds.
 */
export const adAccountChanges: GraphObjectParser = {
  object: 'ad_account',
  parse: (notification) =>
    ((notification.entry ?? []) as AdAccountEntry[]).flatMap((entry) => {
      const platformAdAccountId = adAccountIdOf(entry.id);
      if (!platformAdAccountId || typeof entry.time !== 'number') return [];
      const at = new Date(entry.time < 1e12 ? entry.time * 1000 : entry.time);
      return (entry.changes ?? []).flatMap(({ field, value }) => {
        const change = value && changeOf(field, value);
        return change ? [{ kind: 'ad_account_change' as const, platformAdAccountId, at, change }] : [];
      });
    }),
};
