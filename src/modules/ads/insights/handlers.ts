import { type Handler, principalOf } from '../../../http/handler.js';
import { adInsights, adInsightsReport } from './insights.js';
import { estimateReach, searchLocations, searchTargeting } from './targeting.js';

export const getAdInsights: Handler<'getAdInsights'> = async (request, services) =>
  adInsights(services, principalOf(request), request.query);

export const getAdInsightsReport: Handler<'getAdInsightsReport'> = async (request, services) =>
  adInsightsReport(services, principalOf(request), request.params.reportId, request.query);

export const searchAdLocations: Handler<'searchAdLocations'> = async (request, services) => ({
  status: 200,
  body: await searchLocations(services, principalOf(request), request.query),
});

export const searchAdInterests: Handler<'searchAdInterests'> = async (request, services) => ({
  status: 200,
  body: await searchTargeting(services, principalOf(request), 'interests', request.query),
});

export const searchAdBehaviors: Handler<'searchAdBehaviors'> = async (request, services) => ({
  status: 200,
  body: await searchTargeting(services, principalOf(request), 'behaviors', request.query),
});

export const searchAdLocales: Handler<'searchAdLocales'> = async (request, services) => ({
  status: 200,
  body: await searchTargeting(services, principalOf(request), 'locales', request.query),
});

export const estimateAdReach: Handler<'estimateAdReach'> = async (request, services) => ({
  status: 200,
  body: await estimateReach(services, principalOf(request), request.body),
});
