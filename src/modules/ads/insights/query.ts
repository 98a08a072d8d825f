import { DateTime } from 'luxon';
import { type FieldError, ValidationFailedError } from '../../../lib/errors.js';
import type { Request } from '../../../http/handler.js';
import type { AdInsightsQuery, AdRowLevel } from '../../../platforms/capabilities/ad-insights.js';

export type InsightsQueryParams = Request<'getAdInsights'>['query'];
/** An insights query before the ad account's currency and time zone are known. */
export type AskedQuery = Omit<AdInsightsQuery, 'currency' | 'timeZone'>;

/** Rows may be of the object's level or below it: an ad set's rows are ad sets or ads, never campaigns. */
const DEPTH: Record<AdRowLevel, number> = { account: 0, campaign: 1, adset: 2, ad: 3 };
const DEFAULT_FIELDS: AdInsightsQuery['fields'] = ['impressions', 'reach', 'clicks', 'spend'];
/** How far back both platforms keep figures. */
const MONTHS_KEPT = 37;

/** The query as the platforms are asked it; 400 for what the contract's shape cannot say (members that go together). */
export function askedQuery(params: InsightsQueryParams): AskedQuery {
  const errors: FieldError[] = [];
  const wrong = (member: string, message: string) => errors.push({ path: `query/${member}`, message, code: 'combination' });
  const { objectId, objectLevel, since, until, datePreset } = params;
  if (objectId !== undefined && objectLevel === undefined) wrong('objectLevel', 'is required with objectId');
  if (objectLevel !== undefined && objectId === undefined) wrong('objectId', 'is required with objectLevel');
  const level = params.level ?? objectLevel ?? 'account';
  if (objectLevel && DEPTH[level] < DEPTH[objectLevel]) wrong('level', `must be ${objectLevel} or below it, the level of objectId`);
  if ((since === undefined) !== (until === undefined)) wrong(since === undefined ? 'since' : 'until', 'since and until go together');
  if (datePreset !== undefined && since !== undefined) wrong('datePreset', 'is not allowed with since and until');
  if (since !== undefined && until !== undefined) {
    if (since > until) wrong('until', 'must not be before since');
    if (since < DateTime.utc().minus({ months: MONTHS_KEPT }).toISODate()!)
      wrong('since', `must be within the last ${MONTHS_KEPT} months: the platforms keep no older figures`);
  }
  if (errors.length > 0) throw new ValidationFailedError(errors);
  return {
    level,
    object: objectId !== undefined && objectLevel !== undefined ? { id: objectId, level: objectLevel } : null,
    fields: params.fields ?? DEFAULT_FIELDS,
    period: since !== undefined && until !== undefined ? { since, until } : { preset: datePreset ?? 'last_30d' },
    timeIncrement: params.timeIncrement ?? 'all',
    breakdowns: params.breakdowns ?? [],
    attributionWindows: params.attributionWindows ?? [],
  };
}
