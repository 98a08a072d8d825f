import { NotFoundError } from '../../../lib/errors.js';
import type { AdAccountId } from '../../../lib/ids.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { AskedQuery } from './query.js';

/** What a report id holds: the ad account it was started for, the platform's id of the report, the query it answers. */
interface ReportRef {
  adAccountId: AdAccountId;
  platformReportId: string;
  query: AskedQuery;
}

/**
 * A report is kept by the platform alone; its id carries what reading it needs, sealed (encrypted and
 * authenticated) so that it cannot be forged: a report is read only for the ad account that started it, and the
 * query that presents its rows is the one checked when it was started.
 */
export function sealReportId(secrets: SecretBox, ref: ReportRef): string {
  return secrets.seal(JSON.stringify(ref));
}

/** The report a sealed id names, when it is the ad account's; else 404, as for an id that never existed. */
export function openReportId(secrets: SecretBox, reportId: string, adAccountId: AdAccountId): ReportRef {
  let ref: ReportRef | null = null;
  try {
    ref = JSON.parse(secrets.open(reportId)) as ReportRef;
  } catch {
    ref = null;
  }
  if (ref?.adAccountId !== adAccountId) throw new NotFoundError('insights report');
  return ref;
}
