import { type Handler, principalOf } from '../../http/handler.js';
import { newId } from '../../lib/ids.js';
import { connectionProblem, saveConnectedAccount } from '../accounts/accounts.js';
import { AccountRow } from '../accounts/models.js';
import { presentAccount } from '../accounts/present.js';
import { findProfile } from '../accounts/profiles.js';
import * as oauth from './oauth.js';
import { platformToConnect } from './platform.js';

/**
 * Verifies the bot token, points the bot's webhook at us, and saves the account (a repair keeps its id). The
 * account id is chosen before the platform call because the webhook secret carries it.
 */
export const connectBotchat: Handler<'connectBotchat'> = async (request, services) => {
  const principal = principalOf(request);
  await findProfile(services.db, principal, request.body.profileId);
  const botId = request.body.botToken.split(':')[0] ?? '';
  const existing = await AccountRow.query(services.db).findOne({ ownerId: principal.ownerId, platform: 'botchat', platformAccountId: botId });
  const accountId = existing?.id ?? newId('acc');
  const connected = await platformToConnect(services, 'botchat').connect(request.body.botToken, accountId)
    .catch((error: unknown) => connectionProblem(error, 'bot token'));
  const { row, created } = await saveConnectedAccount(services, principal, {
    profileId: request.body.profileId, platform: 'botchat', identity: connected.identity, credentials: connected.credentials, id: accountId,
  });
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
