type Obj = Record<string, unknown> & { id: string };

/** A recurring price as the provider shows it, found by its lookup key. */
export function priceObject(
  lookupKey: string,
  options: { unitAmount: number; interval: 'month' | 'year'; currency?: string; nickname?: string },
  created: number,
): Obj {
  return {
    id: `price_${lookupKey}`,
    object: 'price',
    active: true,
    currency: options.currency ?? 'eur',
    lookup_key: lookupKey,
    nickname: options.nickname ?? lookupKey,
    product: `prod_${lookupKey.replace(/_(month|year)ly$/, '')}`,
    recurring: { interval: options.interval, interval_count: 1, usage_type: 'licensed' },
    type: 'recurring',
    billing_scheme: 'per_unit',
    tax_behavior: 'unspecified',
    unit_amount: options.unitAmount,
    unit_amount_decimal: String(options.unitAmount),
    livemode: false,
    created,
    metadata: {},
  };
}

/** The demo catalogue a fresh sandbox sells: `<plan>_monthly` and `<plan>_yearly` (ten months' price). */
export function demoPrices(): Map<string, Obj> {
  const prices = new Map<string, Obj>();
  const plans: Array<[string, number]> = [
    ['starter', 900],
    ['pro', 2900],
    ['business', 9900],
  ];
  for (const [plan, monthly] of plans) {
    for (const interval of ['month', 'year'] as const) {
      const price = priceObject(
        `${plan}_${interval}ly`,
        { unitAmount: interval === 'month' ? monthly : monthly * 10, interval, nickname: `${plan} (${interval}ly)` },
        1763942400,
      );
      prices.set(price.id, price);
    }
  }
  return prices;
}
