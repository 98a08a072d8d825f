import { currencyExponent } from '../lib/money.js';

/**
 * A cost per result (a CPC of "0.823456" euros) in minor units with its fraction kept, as the contract carries
 * costs: the platforms give them as major-unit decimals of the ad account's currency.
 */
export function minorCost(value: unknown, currency: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  return Number((Number(value) * 10 ** currencyExponent(currency)).toFixed(6));
}
