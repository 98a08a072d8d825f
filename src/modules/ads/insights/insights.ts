import type { components } from '../../../../generated/api.js';
import { NotFoundError } from '../../../lib/errors.js';
import { type AdAccountId, idOf } from '../../../lib/ids.js';
import { platformPage } from '../../../lib/pagination.js';
import {
  AdBreakdownNotEnabled,
  type AdInsightsQuery,
  AdInsightsTooLarge,
  AdObjectNotFoundAtPlatform,
} from '../../../platforms/capabilities/ad-insights.js';
import type { PlatformError } from '../../../platforms/errors.js';
import type { AdapterAccount } from '../../../platforms/types.js';
import type { Services } from '../../../services.js';
import { PlatformFailedError } from '../../accounts/errors.js';
import { type CapableAdapter, withConnectedAccount } from '../../accounts/platform-call.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';
import { AdBreakdownNotEnabledError, AdInsightsUnsupportedError } from './errors.js';
import { type AskedQuery, askedQuery, type InsightsQueryParams } from './query.js';
import { openReportId, sealReportId } from './report-id.js';

type Insights = components['schemas']['AdInsights'];
type Report = components['schemas']['AdInsightsReport'];
type PageQuery = { limit?: number; cursor?: string };

/** What an insights read answers: the rows, or the report the platform computes in the background. */
export type InsightsAnswer = { status: 200; body: Insights } | { status: 202; body: Report; headers?: Record<string, string> };

/** How long a caller waits before asking again about a report still running. */
const REPORT_RETRY_SECONDS = 5;

/** The platform's refusals of a query that the caller can act on: a breakdown to enable, an object not there. */
function refusals(error: PlatformError): void {
  if (error instanceof AdBreakdownNotEnabled) throw new AdBreakdownNotEnabledError(error.breakdown, error.message);
  if (error instanceof AdObjectNotFoundAtPlatform) throw new NotFoundError('campaign, ad set, ad or report in the ad account');
}

/** The query as the platform is asked it: without the metrics it does not give (named in `unsupported` instead). */
function platformQuery(adapter: CapableAdapter<'adInsights'>, row: AdAccountRow, asked: AskedQuery) {
  const refusal = adapter.adInsights.refusal(asked);
  if (refusal) throw new AdInsightsUnsupportedError(row.platform, refusal);
  const reasons = adapter.adInsights.unsupported(asked);
  const unsupported = asked.fields.filter((field) => reasons[field]).map((field) => ({ field, reason: reasons[field]! }));
  const query: AdInsightsQuery = {
    ...asked,
    fields: asked.fields.filter((field) => !reasons[field]),
    currency: row.currency,
    timeZone: row.timezone,
  };
  return { query, unsupported };
}

function reportAnswer(reportId: string, adAccountId: string, state: { status: Report['status']; percentComplete: number }): InsightsAnswer {
  return {
    status: 202,
    body: {
      reportId,
      adAccountId,
      status: state.status,
      percentComplete: state.percentComplete,
      location: `/ads/insights/reports/${reportId}?${new URLSearchParams({ adAccountId })}`,
    },
    headers: { 'Retry-After': String(REPORT_RETRY_SECONDS) },
  };
}

/** A call on the ad account's insights, with the platform's refusals of a query the caller can act on made ours. */
function onInsights<T>(
  services: Services,
  principal: Principal,
  adAccountId: AdAccountId,
  call: (adapter: CapableAdapter<'adInsights'>, account: AdapterAccount, row: AdAccountRow) => Promise<T>,
): Promise<T> {
  return withConnectedAccount(services, principal, { adAccountId }, 'adInsights', call, { handle: refusals });
}

/**
 * `GET /ads/insights`: read at once, or, asked for (`async`) or when the platform will not answer at once, started
 * as a report the platform computes in the background (202 with where to read it).
 */
export function adInsights(services: Services, principal: Principal, params: InsightsQueryParams): Promise<InsightsAnswer> {
  const asked = askedQuery(params);
  const adAccountId = idOf('adacc', params.adAccountId);
  return onInsights(services, principal, adAccountId, async (adapter, account, row) => {
    const { query, unsupported } = platformQuery(adapter, row, asked);
    const start = async () => {
      const platformReportId = await adapter.adInsights.startReport(account, query);
      const reportId = sealReportId(services.secrets, { adAccountId, platformReportId, query: asked });
      return reportAnswer(reportId, adAccountId, { status: 'queued', percentComplete: 0 });
    };
    if (params.async) return start();
    try {
      const page = await platformPage(params, (at) => adapter.adInsights.read(account, query, at));
      return { status: 200, body: { adAccountId, currency: row.currency, ...page, unsupported } };
    } catch (error) {
      if (error instanceof AdInsightsTooLarge) return start();
      throw error;
    }
  });
}

/** `GET /ads/insights/reports/{reportId}`: the report's progress, or a page of its rows once the platform has them. */
export function adInsightsReport(
  services: Services,
  principal: Principal,
  reportId: string,
  params: PageQuery & { adAccountId: string },
): Promise<InsightsAnswer> {
  const adAccountId = idOf('adacc', params.adAccountId);
  return onInsights(services, principal, adAccountId, async (adapter, account, row) => {
    const { platformReportId, query: asked } = openReportId(services.secrets, reportId, adAccountId);
    const { query, unsupported } = platformQuery(adapter, row, asked);
    const state = await adapter.adInsights.reportState(account, platformReportId);
    if (state.status === 'failed')
      throw new PlatformFailedError(`The platform failed to compute the report (${state.message}); ask for it again.`);
    if (state.status !== 'done') return reportAnswer(reportId, adAccountId, state);
    const page = await platformPage(params, (at) => adapter.adInsights.reportRows(account, platformReportId, query, at));
    return { status: 200, body: { adAccountId, currency: row.currency, ...page, unsupported } };
  });
}
