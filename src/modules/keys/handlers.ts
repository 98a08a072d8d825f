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

// A new expiry, as a revocation, holds in every process once the caller is answered.
export const updateApiKey: Handler<'updateApiKey'> = async (request, { db, principals }) => {
  const update = () => keys.updateApiKey(db, principalOf(request).ownerId, request.params.id, request.body);
  const row = request.body.expiresAt === undefined ? await update() : await principals.change(request.params.id, update);
  return { status: 200, body: keys.presentApiKey(row) };
};

export const deleteApiKey: Handler<'deleteApiKey'> = async (request, { db, principals }) => {
  await principals.change(request.params.id, () => keys.revokeApiKey(db, principalOf(request).ownerId, request.params.id));
  return { status: 204, body: undefined };
};
