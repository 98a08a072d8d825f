/** What of an API request names its write: the caller's `Idempotency-Key` header, and the request's own id. */
export interface KeyedRequest {
  koa: { get(name: string): string };
  requestId: string;
}

/**
 * The forms of keys written before this helper, kept for their kinds. A key a retry can compute again must keep
 * its form for as long as the retry may come: while a deploy rolls, old and new processes answer retries of one
 * Idempotency-Key and must both find its write in the ledger (or, for a calendar event, derive the same event id
 * the platform keeps); a lost answer may be retried for as long as the ledger keeps the write (30 days).
 */
const KEPT_FORMS: Record<string, (idempotencyKey: string) => string> = {
  message: (idempotencyKey) => `key:${idempotencyKey}`,
  'calendar.event': (idempotencyKey) => idempotencyKey,
};

/**
 * The key of the platform write an API request asks for: `<kind>:idem:<Idempotency-Key>`, so a retry is the same
 * write; without the header, `<kind>:request:<request id>`, a write of this request alone (no retry can name it,
 * so that form may change). `kind` tells apart the writes one key may ask for on one account (a reply, a hide).
 */
export function writeKey(request: KeyedRequest, kind: string): string {
  const idempotencyKey = request.koa.get('Idempotency-Key');
  if (!idempotencyKey) return `${kind}:request:${request.requestId}`;
  return KEPT_FORMS[kind]?.(idempotencyKey) ?? `${kind}:idem:${idempotencyKey}`;
}
