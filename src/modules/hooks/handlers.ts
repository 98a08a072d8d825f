import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import * as deliveries from './deliveries.js';
import { presentHook } from './present.js';
import * as hooks from './service.js';

export const createHook: Handler<'createHook'> = async (request, services) => {
  const { hook, secret } = await hooks.createHook(services, principalOf(request), request.body);
  return { status: 201, body: { ...presentHook(hook), secret } };
};

export const listHooks: Handler<'listHooks'> = async (request, { db }) => ({
  status: 200,
  body: await hooks.listHooks(db, principalOf(request), pageRequest(request.query)),
});

export const getHook: Handler<'getHook'> = async (request, { db }) => ({
  status: 200,
  body: presentHook(await hooks.findHook(db, principalOf(request), request.params.id)),
});

export const updateHook: Handler<'updateHook'> = async (request, services) => ({
  status: 200,
  body: presentHook(await hooks.updateHook(services, principalOf(request), request.params.id, request.body)),
});

export const deleteHook: Handler<'deleteHook'> = async (request, { db }) => {
  await hooks.deleteHook(db, principalOf(request), request.params.id);
  return { status: 204, body: undefined };
};

export const testHook: Handler<'testHook'> = async (request, services) => {
  const delivery = await hooks.testHook(services, principalOf(request), request.params.id);
  return { status: 202, body: (await deliveries.presentDeliveries(services.db, [delivery])).get(delivery.id)! };
};

export const rotateHookSecret: Handler<'rotateHookSecret'> = async (request, services) => {
  const overlap = request.body?.expiresInSeconds ?? 86_400;
  const rotated = await hooks.rotateHookSecret(services, principalOf(request), request.params.id, overlap);
  return { status: 200, body: { secret: rotated.secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt.toISOString() } };
};

export const listHookDeliveries: Handler<'listHookDeliveries'> = async (request, { db }) => ({
  status: 200,
  body: await deliveries.listHookDeliveries(db, principalOf(request), request.params.id, pageRequest(request.query), {
    status: request.query.status,
    event: request.query.event,
  }),
});

export const redeliverHookDelivery: Handler<'redeliverHookDelivery'> = async (request, { db, config }) => ({
  status: 202,
  body: await deliveries.redeliverHookDelivery(db, principalOf(request), request.params.id, request.params.deliveryId, config.webhooks),
});
