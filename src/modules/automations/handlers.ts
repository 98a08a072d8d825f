import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import { listRuns } from './runs.js';
import * as automations from './store.js';

export const createAutomation: Handler<'createAutomation'> = async (request, services) => ({
  status: 201,
  body: await automations.createAutomation(services, principalOf(request), request.body),
});

export const listAutomations: Handler<'listAutomations'> = async (request, services) => ({
  status: 200,
  body: await automations.listAutomations(services, principalOf(request), pageRequest(request.query), request.query),
});

export const getAutomation: Handler<'getAutomation'> = async (request, services) => ({
  status: 200,
  body: await automations.getAutomation(services, principalOf(request), request.params.id),
});

export const updateAutomation: Handler<'updateAutomation'> = async (request, services) => ({
  status: 200,
  body: await automations.updateAutomation(services, principalOf(request), request.params.id, request.body),
});

export const deleteAutomation: Handler<'deleteAutomation'> = async (request, services) => {
  await automations.deleteAutomation(services, principalOf(request), request.params.id);
  return { status: 204, body: undefined };
};

export const listAutomationRuns: Handler<'listAutomationRuns'> = async (request, { db }) => ({
  status: 200,
  body: await listRuns(db, principalOf(request), request.params.id, pageRequest(request.query), request.query),
});
