import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import { copyAdObject as copy } from './copy.js';
import { setStatuses } from './status.js';
import { campaignTree } from './tree.js';

export const getAdCampaignTree: Handler<'getAdCampaignTree'> = async (request, services) => ({
  status: 200,
  body: await campaignTree(services, principalOf(request), request.query),
});

export const copyAdObject: Handler<'copyAdObject'> = async (request, services) => ({
  status: 201,
  body: await copy(services, principalOf(request), request.body, writeKey(request, 'ad.copy')),
});

export const setAdObjectsStatus: Handler<'setAdObjectsStatus'> = async (request, services) => ({
  status: 200,
  body: await setStatuses(services, principalOf(request), request.body),
});
