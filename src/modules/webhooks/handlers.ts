import type { Handler } from '../../http/handler.js';
import { answerHandshake, receiveWebhook } from './receive.js';

export const verifyPlatformWebhook: Handler<'verifyPlatformWebhook'> = async (request, services) => ({
  status: 200,
  body: answerHandshake(services, request.params.platform, request.koa.query),
  contentType: 'text/plain; charset=utf-8',
});

export const receivePlatformWebhook: Handler<'receivePlatformWebhook'> = async (request, services) => {
  const incoming = { headers: request.koa.headers, query: request.koa.query, rawBody: request.koa.state.rawBody ?? '' };
  const { duplicate } = await receiveWebhook(services, request.params.platform, incoming);
  return { status: 200, body: { received: true, duplicate } };
};
