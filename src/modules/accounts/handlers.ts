import { type Handler, principalOf } from '../../http/handler.js';
import { idOf } from '../../lib/ids.js';
import { pageRequest } from '../../lib/pagination.js';
import { aboutAccount } from './about.js';
import * as adAccounts from './ad-accounts.js';
import * as accounts from './accounts.js';
import { healthFacts, presentAccount } from './present.js';
import { deleteProfile as deleteProfileOf } from './profile-deletion.js';
import * as profiles from './profiles.js';
import { findAccount } from './read.js';

export const createProfile: Handler<'createProfile'> = async (request, { db, config }) => {
  const row = await profiles.createProfile(db, config.usage, principalOf(request), request.body);
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

export const deleteProfile: Handler<'deleteProfile'> = async (request, services) => {
  await deleteProfileOf(services, principalOf(request), request.params.id);
  return { status: 204, body: undefined };
};

export const listAccounts: Handler<'listAccounts'> = async (request, { db }) => ({
  status: 200,
  body: await accounts.listAccounts(db, principalOf(request), pageRequest(request.query), request.query),
});

export const listAccountHealth: Handler<'listAccountHealth'> = async (request, { db, platforms }) => ({
  status: 200,
  body: await accounts.listAccountHealth(db, principalOf(request), pageRequest(request.query), request.query, (platform) =>
    healthFacts(platforms, platform),
  ),
});

export const getAccount: Handler<'getAccount'> = async (request, { db }) => ({
  status: 200,
  body: presentAccount(await findAccount(db, principalOf(request), idOf('acc', request.params.id))),
});

export const deleteAccount: Handler<'deleteAccount'> = async (request, services) => {
  await accounts.disconnect(services, principalOf(request), idOf('acc', request.params.id));
  return { status: 204, body: undefined };
};

export const getAccountAbout: Handler<'getAccountAbout'> = async (request, services) => ({
  status: 200,
  body: await aboutAccount(services, principalOf(request), idOf('acc', request.params.id)),
});

export const listAdAccounts: Handler<'listAdAccounts'> = async (request, { db }) => ({
  status: 200,
  body: await adAccounts.listAdAccounts(db, principalOf(request), pageRequest(request.query), request.query),
});

export const deleteAdAccount: Handler<'deleteAdAccount'> = async (request, services) => {
  await accounts.disconnect(services, principalOf(request), idOf('adacc', request.params.id));
  return { status: 204, body: undefined };
};
