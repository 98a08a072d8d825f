import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import * as keys from './service.js';

export const createApiKey: Handler<'createApiKey'> = async (request, { db }) => {
  const { row, key } = await keys.createApiKey(db, principalOf(request).ownerId, request.body);
  return { status: 201, body: { ...keys.presentApiKey(row), key } };
};

export const listApiKeys: Handler<'listApiKeys'> = async (request, { db }) => ({
  status: 200,
  body: await keys.listApiKeys(db, principalOf(request).ownerId, pageRequest(request.query)),
});

export const updateApiKey: Handler<'updateApiKey'> = async (request, { db }) => ({
  status: 200,
  body: keys.presentApiKey(await keys.updateApiKey(db, principalOf(request).ownerId, request.params.id, request.body)),
});

export const deleteApiKey: Handler<'deleteApiKey'> = async (request, { db }) => {
  await keys.revokeApiKey(db, principalOf(request).ownerId, request.params.id);
  return { status: 204, body: undefined };
};
