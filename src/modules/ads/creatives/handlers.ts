import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import { createAdCreative as create } from './create.js';
import { findTask, presentTask } from './tasks.js';

export const createAdCreative: Handler<'createAdCreative'> = async (request, services) => {
  const outcome = await create(services, principalOf(request), request.body, writeKey(request, 'adcreative'));
  switch (outcome.kind) {
    case 'validated':
      return { status: 200, body: { adAccountId: request.body.adAccountId, valid: true, checkedBy: outcome.checkedBy } };
    case 'task':
      return { status: 202, body: outcome.task, headers: { Location: `/ads/adcreatives/tasks/${outcome.task.taskId}` } };
    case 'created':
      return { status: 201, body: outcome.creative };
  }
};

export const getAdCreativeTask: Handler<'getAdCreativeTask'> = async (request, services) => ({
  status: 200,
  body: presentTask(await findTask(services.db, principalOf(request), request.params.taskId)),
});
