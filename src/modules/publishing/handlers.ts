import { type Handler, principalOf } from '../../http/handler.js';
import { writeKey } from '../platform-writes/write-key.js';
import { createBatch } from './batch.js';
import { createPost as create } from './create.js';
import { updatePost as update } from './edit.js';
import * as history from './history.js';
import { postProblems } from './problems.js';
import { deletePost as remove, retryPost as retry } from './lifecycle.js';
import { presentPost } from './present.js';
import * as queue from './queue.js';
import type { Checked } from './validate.js';
import { nextSlot, previewQueue as preview } from './queue-preview.js';
import { updateSlot } from './slot-update.js';
import { getPost as get, listPosts as list } from './read.js';

export const createPost: Handler<'createPost'> = async (request, services) => {
  const { post, targets } = await create(services, principalOf(request), request.body);
  const body = presentPost(post, targets);
  return 'publishNow' in request.body ? { status: 202, body } : { status: 201, body };
};

export const updatePost: Handler<'updatePost'> = async (request, services) => {
  const { post, targets } = await update(services, principalOf(request), request.params.id, request.body, writeKey(request, 'post.edit'));
  return { status: 200, body: presentPost(post, targets) };
};

export const validatePost: Handler<'validatePost'> = async (request, services) => {
  const [{ errors }] = (await postProblems(services, principalOf(request), [request.body])) as [Checked];
  return { status: 200, body: { valid: errors.length === 0, errors } };
};

export const createPostBatch: Handler<'createPostBatch'> = async (request, services) => ({
  status: 201,
  body: {
    data: (await createBatch(services, principalOf(request), request.body.posts)).map(({ post, targets }, index) => ({
      index,
      status: 'created' as const,
      post: presentPost(post, targets),
    })),
  },
});

export const listPosts: Handler<'listPosts'> = async (request, { db }) => ({
  status: 200,
  body: await list(db, principalOf(request), request.query),
});

export const getPost: Handler<'getPost'> = async (request, { db }) => ({
  status: 200,
  body: await get(db, principalOf(request), request.params.id),
});

export const deletePost: Handler<'deletePost'> = async (request, services) => ({
  status: 200,
  body: await remove(services, principalOf(request), request.params.id),
});

export const retryPost: Handler<'retryPost'> = async (request, services) => ({
  status: 202,
  body: await retry(services, principalOf(request), request.params.id, request.body?.accountIds),
});

export const createQueueSlot: Handler<'createQueueSlot'> = async (request, { db }) => ({
  status: 201,
  body: await queue.createSlot(db, principalOf(request), request.body),
});

export const listQueueSlots: Handler<'listQueueSlots'> = async (request, { db }) => ({
  status: 200,
  body: await queue.listSlots(db, principalOf(request), request.query),
});

export const deleteQueueSlot: Handler<'deleteQueueSlot'> = async (request, { db }) => {
  await queue.deleteSlot(db, principalOf(request), request.params.id);
  return { status: 204, body: undefined };
};

export const updateQueueSlot: Handler<'updateQueueSlot'> = async (request, services) => ({
  status: 200,
  body: await updateSlot(services, principalOf(request), request.params.id, request.body),
});

export const getNextQueueSlot: Handler<'getNextQueueSlot'> = async (request, { db }) => ({
  status: 200,
  body: await nextSlot(db, principalOf(request), request.query),
});

export const previewQueue: Handler<'previewQueue'> = async (request, { db }) => ({
  status: 200,
  body: await preview(db, principalOf(request), request.query),
});

export const enqueuePost: Handler<'enqueuePost'> = async (request, services) => ({
  status: 201,
  body: await queue.enqueue(services, principalOf(request), request.body),
});

export const listQueue: Handler<'listQueue'> = async (request, { db }) => ({
  status: 200,
  body: await queue.listQueue(db, principalOf(request), request.query),
});

export const listAccountHistory: Handler<'listAccountHistory'> = async (request, services) => ({
  status: 200,
  body: await history.listAccountHistory(services, principalOf(request), request.params.id, request.query ?? {}),
});

export const deletePlatformPost: Handler<'deletePlatformPost'> = async (request, services) => {
  await history.deletePlatformPost(services, principalOf(request), request.params.id, request.params.objectId);
  return { status: 204, body: undefined };
};
