/**
 * What the Business API refuses of web events (`event/track/`) and custom conversions (`custom_conversion/create/`),
 * each a 40002 message naming the parameter (`data[3].event_time: …`), or null. Best knowledge of the platform's
 * rules, from its reference as the SDKs carry it: person fields SHA-256 hashed (64 lowercase hex digits) except
 * city, state and country, the IP address, user agent and cookies; events of the last 7 days, not ahead of now; a
 * web event names its page. Custom conversions: a name starting with a letter (letters, digits, spaces, `_`, `-`,
 * at most 50), 1 to 10 rules, each operator allowed for its parameter, values as its kind wants.
 */

const HASHED = ['email', 'phone', 'external_id', 'first_name', 'last_name', 'zip_code'] as const;
const SEVEN_DAYS = 7 * 24 * 3600;
const SHA256 = /^[0-9a-f]{64}$/;

export function eventProblem(event: Record<string, unknown>, index: number, nowSeconds: number): string | null {
  const at = `data[${index}]`;
  if (typeof event.event !== 'string' || event.event === '') return `${at}.event: Field is required.`;
  const time = event.event_time;
  if (typeof time !== 'number' || !Number.isInteger(time)) return `${at}.event_time: Must be a Unix timestamp in seconds.`;
  if (time < nowSeconds - SEVEN_DAYS) return `${at}.event_time: The event happened more than 7 days ago and cannot be reported.`;
  if (time > nowSeconds + 60) return `${at}.event_time: The event time is in the future.`;
  const page = (event.page ?? {}) as Record<string, unknown>;
  if (typeof page.url !== 'string' || page.url === '') return `${at}.page.url: Field is required for web events.`;
  const user = (event.user ?? {}) as Record<string, unknown>;
  for (const key of HASHED) {
    const values = user[key] === undefined ? [] : Array.isArray(user[key]) ? (user[key] as unknown[]) : [user[key]];
    if (values.some((value) => typeof value !== 'string' || !SHA256.test(value)))
      return `${at}.user.${key}: Must be SHA-256 hashed (64 lowercase hex digits).`;
  }
  return null;
}

/** The pixel's web events a custom conversion may count (`optimization_event`). */
export const OPTIMIZATION_EVENTS = new Set([
  'SHOPPING',
  'FORM',
  'ON_WEB_REGISTER',
  'ON_WEB_CART',
  'INITIATE_ORDER',
  'ADD_BILLING',
  'ON_WEB_ADD_TO_WISHLIST',
  'ON_WEB_DETAIL',
  'ON_WEB_SEARCH',
  'CONSULT',
  'ON_WEB_SUBSCRIBE',
  'BUTTON',
  'DOWNLOAD_START',
]);
const TEXT = ['CONTAIN', 'NOT_CONTAIN', 'START_WITH', 'EQUAL', 'NOT_EQUAL'];
const NUMBER = ['EQUAL', 'NOT_EQUAL', 'LT', 'GT', 'LTE', 'GTE'];
const PARAMETERS: Record<string, string[]> = {
  URL: TEXT,
  BRAND: TEXT,
  CONTENT_CATEGORY: TEXT,
  CONTENT_ID: TEXT,
  CONTENT_NAME: TEXT,
  CONTENT_TYPE: TEXT,
  DESCRIPTION: TEXT,
  EVENT_ID: TEXT,
  SEARCH_STRING: TEXT,
  STATUS: TEXT,
  CURRENCY: ['EQUAL', 'NOT_EQUAL'],
  NUM_ITEMS: NUMBER,
  PRICE: NUMBER,
  VALUE: NUMBER,
};

export function conversionProblem(input: Record<string, unknown>): string | null {
  const name = typeof input.name === 'string' ? input.name : '';
  if (!/^[A-Za-z][A-Za-z0-9 _-]{0,49}$/.test(name))
    return 'name: Must start with a letter and hold at most 50 letters, digits, spaces, underscores or hyphens.';
  if (typeof input.description === 'string' && input.description.length > 500) return 'description: At most 500 characters.';
  if (!OPTIMIZATION_EVENTS.has(String(input.optimization_event)))
    return `optimization_event: ${String(input.optimization_event)} is not a web event.`;
  const rules = input.rules;
  if (!Array.isArray(rules) || rules.length < 1 || rules.length > 10) return 'rules: Must hold 1 to 10 rules.';
  for (const [index, rule] of (rules as Array<Record<string, unknown>>).entries()) {
    const operators = PARAMETERS[String(rule.parameter)];
    if (!operators) return `rules[${index}].parameter: ${String(rule.parameter)} is not a rule parameter.`;
    if (!operators.includes(String(rule.operator)))
      return `rules[${index}].operator: ${String(rule.parameter)} is compared with ${operators.join(', ')} only.`;
    const values = rule.values;
    if (!Array.isArray(values) || values.length < 1 || values.length > 100 || values.some((v) => typeof v !== 'string' || v.length > 100))
      return `rules[${index}].values: Must hold 1 to 100 strings of at most 100 characters.`;
    if (operators === NUMBER && values.some((v) => !Number.isFinite(Number(v)))) return `rules[${index}].values: Must be numbers.`;
  }
  return null;
}
