import { code as currencyRecord } from 'currency-codes';

/**
 * Money as the contract carries it: an integer of the currency's minor units, with the currency's real ISO 4217
 * exponent (EUR 2, JPY 0, BHD 3) from the ISO list kept by `currency-codes`, never an assumed ×100. Platforms that
 * speak major-unit decimals ("50.00", the Marketing API's insights `spend`, the TikTok Business API's budgets) are
 * converted here both ways, in decimal text, so no binary fraction ever rounds a cent away.
 */

/** The number of minor-unit digits of an ISO 4217 currency; a code the list does not have is a RangeError. */
export function currencyExponent(currency: string): number {
  const record = currencyRecord(currency.toUpperCase());
  if (!record) throw new RangeError(`${currency} is not an ISO 4217 currency`);
  return record.digits;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * A major-unit amount ("50", "50.5", "12.345", or a number as a platform's JSON gives it) in integer minor units;
 * digits beyond the currency's exponent are rounded half away from zero (12.345 EUR → 1235).
 */
export function toMinorUnits(amount: string | number, currency: string): number {
  const text = typeof amount === 'number' ? numberText(amount) : amount.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`${JSON.stringify(amount)} is not a decimal amount`);
  const [, minus, whole, fraction = ''] = match;
  const exponent = currencyExponent(currency);
  const kept = fraction.slice(0, exponent).padEnd(exponent, '0');
  const roundsUp = fraction.length > exponent && fraction[exponent]! >= '5';
  const minor = Number(`${whole}${kept}`) + (roundsUp ? 1 : 0);
  return minus && minor !== 0 ? -minor : minor;
}

/** Integer minor units as the major-unit decimal a platform takes: 5000 EUR → "50.00", 5000 JPY → "5000". */
export function fromMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units`);
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent === 0 ? '' : `.${digits.slice(digits.length - exponent)}`;
  return `${minor < 0 ? '-' : ''}${whole}${fraction}`;
}

/** An amount for people to read in a message: "1.00 EUR", "100 JPY". */
export function moneyText(minor: number, currency: string): string {
  return `${fromMinorUnits(minor, currency)} ${currency}`;
}

/** A JSON number as the shortest decimal that reads back as it (12.345, not 12.3449999…), never as `1e-7`. */
function numberText(amount: number): string {
  if (!Number.isFinite(amount)) throw new RangeError(`${amount} is not an amount`);
  const shortest = String(amount);
  return /e/i.test(shortest) ? amount.toFixed(20).replace(/\.?0+$/, '') : shortest;
}
