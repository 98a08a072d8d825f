import { type Handler, principalOf } from '../../http/handler.js';
import { presentAccount } from '../accounts/present.js';
import { connectBot } from './botchat.js';
import * as oauth from './oauth.js';

export const connectBotchat: Handler<'connectBotchat'> = async (request, services) => {
  const { row, created } = await connectBot(services, principalOf(request), request.body);
  return created ? { status: 201, body: presentAccount(row) } : { status: 200, body: presentAccount(row) };
};

export const startConnection: Handler<'startConnection'> = async (request, services) => {
  const started = await oauth.startConnection(services, principalOf(request), request.params.platform, request.query);
  if (request.query.mode === 'redirect') {
    return { status: 302, body: undefined as never, headers: { Location: started.authorizationUrl } };
  }
  return { status: 200, body: started };
};

export const completeConnection: Handler<'completeConnection'> = async (request, services) => {
  const { outcome, redirectUrl } = await oauth.completeConnection(services, request.params.platform, request.query);
  if (redirectUrl) return { status: 302, body: undefined as never, headers: { Location: oauth.outcomeLocation(redirectUrl, outcome) } };
  return { status: 200, body: oauth.outcomePage(outcome), contentType: 'text/html; charset=utf-8' };
};
