import { type Handler, principalOf } from '../../http/handler.js';
import { writeKey } from '../platform-writes/write-key.js';
import { requestBackfill } from './backfill.js';
import * as forms from './forms.js';
import * as list from './list.js';
import * as states from './states.js';
import { makeTestLead } from './test-leads.js';

export const listLeadForms: Handler<'listLeadForms'> = async (request, services) => ({
  status: 200,
  body: await forms.listForms(services, principalOf(request), request.params.id, request.query),
});

export const getLeadForm: Handler<'getLeadForm'> = async (request, services) => ({
  status: 200,
  body: await forms.getForm(services, principalOf(request), request.params.id, request.params.formId),
});

export const createLeadForm: Handler<'createLeadForm'> = async (request, services) => ({
  status: 201,
  body: await forms.createForm(services, principalOf(request), request.params.id, request.body, writeKey(request, 'lead_form')),
});

export const updateLeadForm: Handler<'updateLeadForm'> = async (request, services) => ({
  status: 200,
  body: await forms.setFormStatus(services, principalOf(request), request.params.id, request.params.formId, request.body.status),
});

export const testLeadFormWebhook: Handler<'testLeadFormWebhook'> = async (request, services) => ({
  status: 202,
  body: await makeTestLead(services, principalOf(request), request.params.id, request.params.formId, request.body),
});

export const listLeads: Handler<'listLeads'> = async (request, services) => ({
  status: 200,
  body: await list.listLeads(services, principalOf(request), request.params.id, request.query),
});

export const deleteLead: Handler<'deleteLead'> = async (request, services) => {
  await list.deleteLead(services, principalOf(request), request.params.id, request.params.leadId);
  return { status: 204, body: undefined };
};

export const backfillLeads: Handler<'backfillLeads'> = async (request, services) => ({
  status: 202,
  body: await requestBackfill(services, principalOf(request), request.params.id),
});

export const listLeadStates: Handler<'listLeadStates'> = async (request, services) => ({
  status: 200,
  body: await states.listStates(services, principalOf(request), request.params.id, request.query),
});

export const getLeadState: Handler<'getLeadState'> = async (request, services) => {
  const { detail, etag } = await states.getState(services, principalOf(request), request.params.id, request.params.leadId);
  return { status: 200, body: detail, headers: { ETag: etag } };
};

export const updateLeadState: Handler<'updateLeadState'> = async (request, services) => {
  const { state, etag } = await states.updateState(
    services,
    principalOf(request),
    request.params.id,
    request.params.leadId,
    request.body,
    request.koa.get('If-Match') || undefined,
  );
  return { status: 200, body: state, headers: { ETag: etag } };
};
