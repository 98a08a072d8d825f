import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import { createDarkPost as create } from './create.js';
import { listDarkPosts as list } from './records.js';

export const createDarkPost: Handler<'createDarkPost'> = async (request, services) => {
  const outcome = await create(services, principalOf(request), request.body, writeKey(request, 'darkpost'));
  if (outcome.kind === 'created') return { status: 201, body: outcome.darkPost };
  return { status: 202, body: outcome.task, headers: { Location: `/ads/adcreatives/tasks/${outcome.task.taskId}` } };
};

export const listDarkPosts: Handler<'listDarkPosts'> = async (request, services) => ({
  status: 200,
  body: await list(services.db, principalOf(request), request.query),
});
