/**
 * The Conversions API's checks of one event, in the order the platform reports them: a refusal of the whole batch
 * (`subcode` and the words for a person), or null. Hashed customer information must be 64 lowercase hex digits
 * (`em`, `ph`, `fn`, `ln`, `ge`, `db`, `ct`, `st`, `zp`, `country`; `external_id` may be in clear); the IP address,
 * user agent and cookies are taken as they come.
 */
export interface CapiRefusal {
  subcode: number;
  title: string;
  message: string;
}

const HASHED = ['em', 'ph', 'fn', 'ln', 'ge', 'db', 'ct', 'st', 'zp', 'country'] as const;
const MATCH_KEYS = [...HASHED, 'external_id', 'client_ip_address', 'client_user_agent', 'fbc', 'fbp'];
const ACTION_SOURCES = new Set([
  'website',
  'app',
  'email',
  'phone_call',
  'chat',
  'physical_store',
  'system_generated',
  'business_messaging',
  'other',
]);
const SEVEN_DAYS = 7 * 24 * 3600;
const SHA256 = /^[0-9a-f]{64}$/;

export function checkCapiEvent(event: Record<string, unknown>, index: number, nowSeconds: number): CapiRefusal | null {
  const refuse = (subcode: number, title: string, message: string) => ({ subcode, title, message: `Event ${index}: ${message}` });
  if (typeof event.event_name !== 'string' || event.event_name === '')
    return refuse(2804001, 'Missing event name', 'event_name is required.');
  const time = Number(event.event_time);
  if (!Number.isInteger(time)) return refuse(2804002, 'Invalid event time', 'event_time must be a Unix timestamp in seconds.');
  if (time < nowSeconds - SEVEN_DAYS)
    return refuse(2804003, 'Event Timestamp Too Old', 'event_time is more than 7 days in the past; the event cannot be accepted.');
  if (time > nowSeconds + 60) return refuse(2804004, 'Event Timestamp In The Future', 'event_time is in the future.');
  if (typeof event.action_source !== 'string') return refuse(2804050, 'Missing action source', 'action_source is required.');
  if (!ACTION_SOURCES.has(event.action_source))
    return refuse(2804051, 'Invalid action source', `${event.action_source} is no action_source.`);
  const user = (event.user_data ?? {}) as Record<string, unknown>;
  if (event.action_source === 'website' && (!event.event_source_url || !user.client_user_agent))
    return refuse(2804019, 'Missing website parameters', 'a website event needs event_source_url and user_data.client_user_agent.');
  for (const key of HASHED) {
    const values = user[key] === undefined ? [] : Array.isArray(user[key]) ? (user[key] as unknown[]) : [user[key]];
    if (values.some((value) => typeof value !== 'string' || !SHA256.test(value)))
      return refuse(2804024, 'Invalid hashed parameter', `user_data.${key} must be SHA-256 hashed (64 lowercase hex digits).`);
  }
  if (!MATCH_KEYS.some((key) => user[key] !== undefined))
    return refuse(2804020, 'Missing customer information', 'user_data has no customer information parameter.');
  return null;
}

/** A warning the platform gives about a received event that matches poorly (no email, phone or external id). */
export function weakMatch(event: Record<string, unknown>, index: number): string | null {
  const user = (event.user_data ?? {}) as Record<string, unknown>;
  return user.em || user.ph || user.external_id
    ? null
    : `Event ${index}: no email, phone or external_id: the event may match few people (low event match quality).`;
}
