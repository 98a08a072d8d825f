import type { SetCondition, SetFilter } from '../capabilities/commerce.js';

/**
 * Our product-set filter and the Graph's filter language, member by member. Text comparisons ignore case, as ours
 * are documented to (`contains` is the language's `i_contains`); prices are compared in hundredths of the major
 * unit, which are the minor units of every two-decimal currency.
 */
const FIELDS: Record<SetCondition['field'], string> = {
  retailerId: 'retailer_id',
  title: 'name',
  brand: 'brand',
  availability: 'availability',
  condition: 'condition',
  price: 'price',
  salePrice: 'sale_price',
  productType: 'product_type',
  itemGroupId: 'retailer_product_group_id',
  inventory: 'inventory',
};
const OPERATORS: Record<SetCondition['operator'], string> = {
  is_any: 'is_any',
  is_not_any: 'is_not_any',
  eq: 'eq',
  neq: 'neq',
  contains: 'i_contains',
  not_contains: 'i_not_contains',
  gt: 'gt',
  gte: 'gte',
  lt: 'lt',
  lte: 'lte',
};

const invert = <K extends string>(table: Record<K, string>) => new Map(Object.entries(table).map(([ours, theirs]) => [theirs, ours as K]));
const OUR_FIELDS = invert(FIELDS);
const OUR_OPERATORS = invert(OPERATORS);

/** `{"and": [{"name": {"i_contains": "coffee"}}, …]}` for ours. */
export function toGraphFilter(filter: SetFilter): Record<string, unknown> {
  return {
    [filter.combinator]: filter.conditions.map((condition) => ({
      [FIELDS[condition.field]]: { [OPERATORS[condition.operator]]: condition.values ?? condition.value },
    })),
  };
}

/** Ours for a filter read from the platform; null when it uses what ours cannot say (nesting, case-sensitive text). */
export function fromGraphFilter(filter: unknown): SetFilter | null {
  if (typeof filter !== 'object' || filter === null) return null;
  const [combinator, rules] = Object.entries(filter)[0] ?? [];
  const conditions: SetCondition[] = [];
  const list = combinator === 'and' || combinator === 'or' ? rules : [filter];
  if (!Array.isArray(list) || list.length === 0) return null;
  for (const rule of list as Array<Record<string, Record<string, unknown>>>) {
    const [field, comparison] = Object.entries(rule)[0] ?? [];
    const [operator, value] = Object.entries(comparison ?? {})[0] ?? [];
    const ourField = OUR_FIELDS.get(field ?? '');
    const ourOperator = OUR_OPERATORS.get(operator ?? '');
    if (!ourField || !ourOperator) return null;
    if (Array.isArray(value)) conditions.push({ field: ourField, operator: ourOperator, values: value as Array<string | number> });
    else if (typeof value === 'string' || typeof value === 'number') conditions.push({ field: ourField, operator: ourOperator, value });
    else return null;
  }
  return { combinator: combinator === 'or' ? 'or' : 'and', conditions };
}
