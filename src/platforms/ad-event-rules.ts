import type { AdEventRule } from './capabilities/ad-pixels.js';

type Operator = AdEventRule['conditions'][number]['operator'];

/** The contract's operators in the rule JSON both ad platforms' custom conversions take (text ones ignore case). */
const PLATFORM_OPERATOR: Record<Operator, string> = {
  contains: 'i_contains',
  not_contains: 'i_not_contains',
  equals: 'eq',
  not_equals: 'neq',
  starts_with: 'i_starts_with',
  ends_with: 'i_ends_with',
  greater_than: 'gt',
  less_than: 'lt',
};
const OPERATOR_OF = new Map(Object.entries(PLATFORM_OPERATOR).map(([ours, theirs]) => [theirs, ours as Operator]));

/** `{"and": [{"url": {"i_contains": "/thank-you"}}, {"custom_data.value": {"gt": 20}}]}`: numbers compared as numbers. */
export function platformRule(rule: AdEventRule): string {
  return JSON.stringify({
    [rule.combinator]: rule.conditions.map(({ field, operator, value }) => ({
      [field]: { [PLATFORM_OPERATOR[operator]]: operator === 'greater_than' || operator === 'less_than' ? Number(value) : value },
    })),
  });
}

/**
 * A rule the platform keeps, in the contract's form. A rule made in the platform's events manager may use what the
 * contract has no words for (a regular expression, nested groups): those conditions are left out.
 */
export function ruleOf(json: string | undefined): AdEventRule {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(json ?? '{}') as Record<string, unknown>;
  } catch {
    // A rule the platform could not give as JSON shows no conditions.
  }
  const combinator = 'or' in parsed ? 'or' : 'and';
  const items = Array.isArray(parsed[combinator]) ? (parsed[combinator] as Array<Record<string, Record<string, unknown>>>) : [];
  const conditions = items.flatMap((item) =>
    Object.entries(item).flatMap(([field, comparison]) =>
      Object.entries(comparison ?? {}).flatMap(([operator, value]) => {
        const ours = OPERATOR_OF.get(operator);
        return ours && /^(url|referrer|event|custom_data\.[A-Za-z0-9_]{1,64})$/.test(field)
          ? [{ field, operator: ours, value: String(value) }]
          : [];
      }),
    ),
  );
  return { combinator, conditions } as AdEventRule;
}
