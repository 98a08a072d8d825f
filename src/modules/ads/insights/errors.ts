import { UnprocessableError } from '../../../lib/errors.js';
import type { AdQueryRefusal } from '../../../platforms/capabilities/ad-insights.js';

/** 422 `ad_insights_unsupported`: the platform cannot answer the query as asked; `errors` names the member at fault. */
export class AdInsightsUnsupportedError extends UnprocessableError {
  constructor(platform: string, refusal: AdQueryRefusal) {
    super('ad_insights_unsupported', 'The ad platform cannot answer this query', `${platform}: ${refusal.message}`, [
      { path: `query/${refusal.member}`, message: refusal.message, code: 'ad_insights_unsupported' },
    ]);
  }
}

/** 422 `ad_breakdown_not_enabled`: the platform wants the breakdown enabled for the ad account before it reports by it. */
export class AdBreakdownNotEnabledError extends UnprocessableError {
  constructor(breakdown: string, platformMessage: string) {
    super(
      'ad_breakdown_not_enabled',
      'The breakdown is not enabled for the ad account',
      `The platform refused the breakdown ${breakdown} (${platformMessage}): enable it for the ad account in the platform's ads manager first.`,
      [{ path: 'query/breakdowns', message: `${breakdown} is not enabled for the ad account`, code: 'ad_breakdown_not_enabled' }],
    );
  }
}
