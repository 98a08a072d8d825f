import type {
  AdConversionEventType,
  AdEventRule,
  CustomConversion,
  CustomConversionInput,
  CustomConversionRules,
  RuleOperator,
} from '../capabilities/ad-pixels.js';

/** A custom conversion as `custom_conversion/list|get/` give it. */
export interface TikTokConversion {
  custom_conversion_id: string | number;
  name?: string;
  description?: string;
  event_source_type?: string;
  event_source_id?: string | number;
  optimization_event?: string;
  rules?: Array<{ parameter: string; operator: string; values: string[] }>;
  create_time?: string;
}

/**
 * The standard event each kind counts as on the platform (`optimization_event`, the pixel's web events); the kinds
 * it has no web event for are refused before anything is sent.
 */
const OPTIMIZATION_EVENT: Partial<Record<AdConversionEventType, string>> = {
  PURCHASE: 'SHOPPING',
  LEAD: 'FORM',
  COMPLETE_REGISTRATION: 'ON_WEB_REGISTER',
  ADD_TO_CART: 'ON_WEB_CART',
  INITIATED_CHECKOUT: 'INITIATE_ORDER',
  ADD_PAYMENT_INFO: 'ADD_BILLING',
  ADD_TO_WISHLIST: 'ON_WEB_ADD_TO_WISHLIST',
  CONTENT_VIEW: 'ON_WEB_DETAIL',
  SEARCH: 'ON_WEB_SEARCH',
  CONTACT: 'CONSULT',
  SUBSCRIBE: 'ON_WEB_SUBSCRIBE',
};
const KIND_OF = new Map(Object.entries(OPTIMIZATION_EVENT).map(([kind, event]) => [event, kind as AdConversionEventType]));

const OPERATOR: Partial<Record<RuleOperator, string>> = {
  contains: 'CONTAIN',
  not_contains: 'NOT_CONTAIN',
  starts_with: 'START_WITH',
  equals: 'EQUAL',
  not_equals: 'NOT_EQUAL',
  greater_than: 'GT',
  less_than: 'LT',
};
const OPERATOR_OF = new Map(Object.entries(OPERATOR).map(([ours, theirs]) => [theirs, ours as RuleOperator]));

/** The event parameters a rule compares besides the URL: `custom_data.<key>` of the contract, the key upper-cased. */
const CUSTOM_DATA_KEYS = [
  'brand',
  'content_category',
  'content_id',
  'content_name',
  'content_type',
  'currency',
  'description',
  'num_items',
  'price',
  'search_string',
  'status',
  'value',
];
const AS_NUMBER = ['equals', 'not_equals', 'greater_than', 'less_than'] as const;

/**
 * The rule syntax of `custom_conversion/create/` (best knowledge, from the Business API's reference as SDKs carry it):
 * 1 to 10 rules that must all hold, each a parameter (`URL` or an event parameter), an operator (no "ends with";
 * numbers compared as numbers only, the currency by equality only) and its value; the event is the custom
 * conversion's standard event, never a rule; no default value. At most 100 an advertiser (best knowledge: the
 * platform's documented figure is not public; the sandbox keeps to it).
 */
export const CONVERSION_RULES: CustomConversionRules = {
  fields: ['url', 'custom_data'],
  customDataKeys: CUSTOM_DATA_KEYS,
  keyOperators: { value: AS_NUMBER, price: AS_NUMBER, num_items: AS_NUMBER, currency: ['equals', 'not_equals'] },
  operators: Object.keys(OPERATOR) as RuleOperator[],
  combinators: ['and'],
  maxConditions: 10,
  eventTypes: Object.keys(OPTIMIZATION_EVENT) as AdConversionEventType[],
  perAccount: 100,
  defaultValue: false,
};

/** What `custom_conversion/create/` is sent for a rule the checks have passed: the pixel named by its numeric id. */
export function conversionBody(input: CustomConversionInput, pixelId: string): Record<string, unknown> {
  return {
    name: input.name,
    description: input.description,
    event_source_type: 'PIXEL',
    event_source_id: pixelId,
    optimization_event: OPTIMIZATION_EVENT[input.customEventType],
    rules: input.rule.conditions.map(({ field, operator, value }) => ({
      parameter: field.replace(/^custom_data\./, '').toUpperCase(),
      operator: OPERATOR[operator],
      values: [value],
    })),
  };
}

/**
 * A custom conversion in the contract's form, its pixel named by code. A rule made in the events manager may
 * compare several values at once (any of them): the contract has no words for that, so such rules are left out.
 */
export function conversionOf(raw: TikTokConversion, pixelCode: string): CustomConversion {
  const conditions = (raw.rules ?? []).flatMap(({ parameter, operator, values }) => {
    const ours = OPERATOR_OF.get(operator);
    const key = parameter.toLowerCase();
    if (!ours || values.length !== 1) return [];
    return [{ field: key === 'url' ? 'url' : `custom_data.${key}`, operator: ours, value: values[0]! }];
  });
  return {
    id: String(raw.custom_conversion_id),
    name: raw.name ?? '',
    description: raw.description || null,
    pixelId: pixelCode,
    customEventType: KIND_OF.get(raw.optimization_event ?? '') ?? 'OTHER',
    rule: { combinator: 'and', conditions } as AdEventRule,
    defaultConversionValue: null,
    lastFiredTime: null,
    isArchived: false,
    createdAt: raw.create_time ? new Date(`${raw.create_time.replace(' ', 'T')}Z`).toISOString() : new Date().toISOString(),
  };
}
