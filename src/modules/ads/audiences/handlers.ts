import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import * as audiences from './audiences.js';
import { decodedBody, peopleLines } from './lines.js';
import { uploadPeople } from './people.js';
import { listReceipts } from './receipts.js';

export const listAudiences: Handler<'listAudiences'> = async (request, services) => ({
  status: 200,
  body: await audiences.listAudiences(services, principalOf(request), request.query),
});

export const createAudience: Handler<'createAudience'> = async (request, services) => ({
  status: 201,
  body: await audiences.createAudience(services, principalOf(request), request.body, writeKey(request, 'ad.audience')),
});

export const getAudience: Handler<'getAudience'> = async (request, services) => ({
  status: 200,
  body: await audiences.getAudience(services, principalOf(request), request.params.audienceId, request.query.adAccountId),
});

export const updateAudience: Handler<'updateAudience'> = async (request, services) => ({
  status: 200,
  body: await audiences.updateAudience(services, principalOf(request), request.params.audienceId, request.body),
});

export const deleteAudience: Handler<'deleteAudience'> = async (request, services) => {
  await audiences.deleteAudience(services, principalOf(request), request.params.audienceId, request.query.adAccountId);
  return { status: 204, body: undefined };
};

/**
 * Adds or removes the body's people, read as it arrives: NDJSON or CSV by its type, decoded from its content
 * coding; the answer is the upload's receipt.
 */
function peopleHandler<K extends 'addAudiencePeople' | 'removeAudiencePeople'>(action: 'add' | 'remove'): Handler<K> {
  return async (request, services) => {
    const { adAccountId } = request.query as { adAccountId: string };
    const { audienceId } = request.params as { audienceId: string };
    const format = request.koa.is('text/csv') ? 'csv' : 'ndjson';
    const lines = peopleLines(decodedBody(request.koa.req, request.koa.get('Content-Encoding') || 'identity'), format);
    const receipt = await uploadPeople(services, principalOf(request), { adAccountId, audienceId, action }, lines);
    return { status: 201, body: receipt } as Awaited<ReturnType<Handler<K>>>;
  };
}

export const addAudiencePeople = peopleHandler<'addAudiencePeople'>('add');
export const removeAudiencePeople = peopleHandler<'removeAudiencePeople'>('remove');

export const listAudienceUploads: Handler<'listAudienceUploads'> = async (request, services) => ({
  status: 200,
  body: await listReceipts(services, principalOf(request), request.params.audienceId, request.query),
});
