import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import { adInput, adSetInput, campaignInput, createAdObject, withPlatformProductSet } from './create.js';
import { listAdObjects } from './list.js';
import * as objects from './object.js';

export const createCampaign: Handler<'createCampaign'> = async (request, services) =>
  createAdObject(services, principalOf(request), 'campaign', request.body, campaignInput(request.body), writeKey(request, 'ad.campaign'));

export const createAdSet: Handler<'createAdSet'> = async (request, services) => {
  const principal = principalOf(request);
  const input = await withPlatformProductSet(services, principal, adSetInput(request.body));
  return createAdObject(services, principal, 'adset', request.body, input, writeKey(request, 'ad.adset'));
};

export const createAd: Handler<'createAd'> = async (request, services) =>
  createAdObject(services, principalOf(request), 'ad', request.body, adInput(request.body), writeKey(request, 'ad.ad'));

export const listCampaigns: Handler<'listCampaigns'> = async (request, services) => ({
  status: 200,
  body: await listAdObjects(services, principalOf(request), 'campaign', request.query),
});

export const listAdSets: Handler<'listAdSets'> = async (request, services) => ({
  status: 200,
  body: await listAdObjects(services, principalOf(request), 'adset', request.query),
});

export const listAds: Handler<'listAds'> = async (request, services) => ({
  status: 200,
  body: await listAdObjects(services, principalOf(request), 'ad', request.query),
});

export const getAdObject: Handler<'getAdObject'> = async (request, services) => ({
  status: 200,
  body: await objects.getAdObject(services, principalOf(request), request.query),
});

export const updateAdObject: Handler<'updateAdObject'> = async (request, services) => ({
  status: 200,
  body: await objects.updateAdObject(services, principalOf(request), request.body),
});

export const deleteAdObject: Handler<'deleteAdObject'> = async (request, services) => {
  await objects.deleteAdObject(services, principalOf(request), request.query);
  return { status: 204, body: undefined };
};
