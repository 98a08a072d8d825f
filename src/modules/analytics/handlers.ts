import { type Handler, principalOf } from '../../http/handler.js';
import { accountInsights } from './account-insights.js';
import { followerHistory } from './followers.js';
import { postInsights } from './post-insights.js';
import { analyticsSummary } from './summary.js';

export const getAnalyticsSummary: Handler<'getAnalyticsSummary'> = async (request, services) => ({
  status: 200,
  body: await analyticsSummary(services, principalOf(request), request.params.accountId, request.query ?? {}),
});

export const getFollowerAnalytics: Handler<'getFollowerAnalytics'> = async (request, services) => ({
  status: 200,
  body: await followerHistory(services, principalOf(request), request.params.accountId, request.query ?? {}),
});

export const getAccountInsights: Handler<'getAccountInsights'> = async (request, services) => ({
  status: 200,
  body: await accountInsights(services, principalOf(request), request.params.id, request.query ?? {}),
});

export const getPostInsights: Handler<'getPostInsights'> = async (request, services) => ({
  status: 200,
  body: await postInsights(services, principalOf(request), request.params.id, request.query ?? {}),
});
