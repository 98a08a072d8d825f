import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import * as conversations from './conversations.js';

export const listConversations: Handler<'listConversations'> = async (request, { db }) => ({
  status: 200,
  body: await conversations.listConversations(db, principalOf(request), request.params.id, pageRequest(request.query), request.query),
});

export const getConversation: Handler<'getConversation'> = async (request, { db }) => ({
  status: 200,
  body: await conversations.getConversation(db, principalOf(request), request.params.id, request.params.convId, pageRequest(request.query)),
});
