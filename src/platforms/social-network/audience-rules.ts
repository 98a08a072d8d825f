import type { AudienceRule } from '../capabilities/ad-audiences.js';

/**
 * The Marketing API's custom audience words, kept as data: the adapter reads and writes by them and the sandbox
 * answers by them as the platform does.
 */

/** Refusals the caller can act on, by error subcode (code 2650, "custom audience" errors). */
export const AUDIENCE_SUBCODES = {
  /** The ad account has not accepted the Custom Audience Terms (once, in its ads manager). */
  termsNotAccepted: 1870090,
  /** A lookalike's source has too few matched people (100 in one of the countries). */
  sourceTooSmall: 1713007,
  /** A lookalike's source is still being populated. */
  sourceNotReady: 1713014,
} as const;
export const AUDIENCE_ERROR_CODE = 2650;

/** Where an ad account's owner accepts the terms. */
export const TERMS_URL = (adAccountId: string) =>
  `https://business.social.example/ads/manage/customaudiences/tos/?act=${adAccountId.replace(/^act_/, '')}`;

/** `operation_status.code`: the list is being matched (populating); an error stops it. */
export const OPERATION_POPULATING = 441;
export const OPERATION_NORMAL = 200;
export const OPERATION_ERROR = 450;
/** `delivery_status.code`: 200 ready to deliver; 300 too small to deliver yet. */
export const DELIVERY_READY = 200;
export const DELIVERY_TOO_SMALL = 300;

/** The largest session batch: 10 000 rows per `/{audience}/users` call. */
export const USERS_BATCH = 10_000;

/** The customer file's multi-key schema: our fields under the Marketing API's keys (hashed as the helper says). */
export const CUSTOMER_FILE_KEYS = {
  email: 'EMAIL',
  phone: 'PHONE',
  firstName: 'FN',
  lastName: 'LN',
  city: 'CT',
  state: 'ST',
  zip: 'ZIP',
  country: 'COUNTRY',
  gender: 'GEN',
  externalId: 'EXTERN_ID',
} as const;

const OPERATORS: Record<AudienceRule['conditions'][number]['operator'], string> = {
  contains: 'i_contains',
  not_contains: 'i_not_contains',
  equals: 'eq',
  not_equals: 'neq',
  starts_with: 'i_starts_with',
  ends_with: 'i_ends_with',
  greater_than: 'gt',
  less_than: 'lt',
};
const OUR_OPERATOR = new Map(Object.entries(OPERATORS).map(([ours, theirs]) => [theirs, ours]));

/** The website audience's rule JSON: the pixel's events over `retentionDays` filtered by our conditions. */
export interface GraphAudienceRule {
  inclusions: {
    operator: 'or';
    rules: Array<{
      event_sources: Array<{ id: string; type: 'pixel' }>;
      retention_seconds: number;
      filter: { operator: 'and' | 'or'; filters: Array<{ field: string; operator: string; value: string }> };
    }>;
  };
}

export function graphRule(rule: AudienceRule, pixelId: string, retentionDays: number): GraphAudienceRule {
  return {
    inclusions: {
      operator: 'or',
      rules: [
        {
          event_sources: [{ id: pixelId, type: 'pixel' }],
          retention_seconds: retentionDays * 86_400,
          filter: {
            operator: rule.combinator,
            filters: rule.conditions.map((one) => ({ field: one.field, operator: OPERATORS[one.operator], value: one.value })),
          },
        },
      ],
    },
  };
}

/** Ours again from the rule JSON; null for a rule of a shape the service did not write (made in the ads manager). */
export function ruleOf(raw: unknown): { rule: AudienceRule; pixelId: string; retentionDays: number } | null {
  const parsed = (typeof raw === 'string' ? safeJson(raw) : raw) as GraphAudienceRule | null;
  const first = parsed?.inclusions?.rules?.[0];
  const pixel = first?.event_sources?.[0]?.id;
  if (!first || !pixel || !first.filter?.filters?.length) return null;
  const conditions = first.filter.filters.map((one) => ({
    field: one.field,
    operator: OUR_OPERATOR.get(one.operator) as AudienceRule['conditions'][number]['operator'] | undefined,
    value: one.value,
  }));
  if (conditions.some((one) => !one.operator)) return null;
  return {
    rule: { combinator: first.filter.operator, conditions: conditions as AudienceRule['conditions'] },
    pixelId: pixel,
    retentionDays: Math.round(first.retention_seconds / 86_400),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
