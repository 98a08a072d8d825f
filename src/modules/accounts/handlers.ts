import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import * as profiles from './profiles.js';

export const createProfile: Handler<'createProfile'> = async (request, { db }) => {
  const row = await profiles.createProfile(db, principalOf(request), request.body);
  return { status: 201, body: profiles.presentProfile(row) };
};

export const listProfiles: Handler<'listProfiles'> = async (request, { db }) => ({
  status: 200,
  body: await profiles.listProfiles(db, principalOf(request), pageRequest(request.query)),
});

export const getProfile: Handler<'getProfile'> = async (request, { db }) => ({
  status: 200,
  body: profiles.presentProfile(await profiles.findProfile(db, principalOf(request), request.params.id)),
});

export const updateProfile: Handler<'updateProfile'> = async (request, { db }) => ({
  status: 200,
  body: profiles.presentProfile(await profiles.updateProfile(db, principalOf(request), request.params.id, request.body)),
});
