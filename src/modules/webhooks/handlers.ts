import type { Handler } from '../../http/handler.js';
import { receiveBillingEvent } from '../billing/events.js';
import { answerHandshake, receiveWebhook } from './receive.js';

export const verifyPlatformWebhook: Handler<'verifyPlatformWebhook'> = async (request, services) => ({
  status: 200,
  body: answerHandshake(services, request.params.platform, request.koa.query),
  contentType: 'text/plain; charset=utf-8',
});

export const receivePlatformWebhook: Handler<'receivePlatformWebhook'> = async (request, services) => {
  const incoming = { headers: request.koa.headers, query: request.koa.query, rawBody: request.koa.state.rawBody ?? '' };
  // The payment provider is no platform of accounts: its events are the billing area's.
  const { platform } = request.params;
  const { duplicate } =
    platform === 'billing' ? await receiveBillingEvent(services, incoming) : await receiveWebhook(services, platform, incoming);
  return { status: 200, body: { received: true, duplicate } };
};
