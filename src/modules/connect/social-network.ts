import { type Handler, principalOf } from '../../http/handler.js';
import { presentAccount, presentAdAccount } from '../accounts/present.js';
import * as selection from './social-network-selection.js';

export const listAvailableSocialNetworkPages: Handler<'listAvailableSocialNetworkPages'> = async (request, services) => ({
  status: 200,
  body: await selection.availablePages(services, principalOf(request), request.params.id, request.query),
});

export const connectSocialNetworkPages: Handler<'connectSocialNetworkPages'> = async (request, services) => {
  const rows = await selection.connectPages(services, principalOf(request), request.params.id, request.body);
  return { status: 201, body: { data: rows.map(presentAccount) } };
};

export const listAvailableSocialNetworkAdAccounts: Handler<'listAvailableSocialNetworkAdAccounts'> = async (request, services) => ({
  status: 200,
  body: await selection.availableAdAccounts(services, principalOf(request), request.params.id, request.query),
});

export const connectSocialNetworkAdAccounts: Handler<'connectSocialNetworkAdAccounts'> = async (request, services) => {
  const rows = await selection.connectAdAccounts(services, principalOf(request), request.params.id, request.body);
  return { status: 201, body: { data: rows.map(presentAdAccount) } };
};
