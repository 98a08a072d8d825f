import { type Handler, principalOf } from '../../http/handler.js';
import { PlatformError } from '../../platforms/errors.js';
import type { Credentials } from '../../platforms/types.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { PlatformFailedError } from '../accounts/errors.js';
import { assertIdentityFree } from '../accounts/identity.js';
import { presentAccount } from '../accounts/present.js';
import { findProfile } from '../accounts/profiles.js';
import { connectionProblem, PlatformNotConfiguredError } from './errors.js';
import { assertReachableBy, platformToConnect } from './platform.js';

/**
 * Subscribing failed: credentials refused are the caller's to fix (422); anything else is the platform's side
 * or ours (the callback URL did not pass Meta's check), so 502.
 */
function subscriptionProblem(error: unknown): never {
  if (error instanceof PlatformError && error.kind === 'invalid_request') {
    throw new PlatformFailedError(`Subscribing to the business account's webhooks failed: ${error.message}`);
  }
  return connectionProblem(error, 'token');
}

/**
 * Checks the token and the number with the platform, checks that nobody else holds the number, registers it when
 * asked to, subscribes the app to the business account's webhooks, and only then saves the account (a repair
 * keeps its id).
 */
export const connectChatappCloud: Handler<'connectChatappCloud'> = async (request, services) => {
  const principal = principalOf(request);
  const input = request.body;
  await findProfile(services.db, principal, input.profileId);
  const adapter = platformToConnect(services, 'chatapp-cloud');
  assertReachableBy(services, 'chatapp-cloud');
  if (!input.appSecret && !adapter.hasApp) {
    throw new PlatformNotConfiguredError(
      'This instance has no chat app cloud API app of its own (CHATAPP_CLOUD_APP_SECRET): give the appSecret of the app the token was issued for.',
    );
  }
  const checked = await adapter.verifyNumber(input).catch((error: unknown) => connectionProblem(error, 'token or phone number'));
  const credentials: Credentials = {
    accessToken: input.accessToken,
    extra: { wabaId: input.wabaId, ...(input.appSecret ? { appSecret: input.appSecret } : {}) },
  };
  const { row, created } = await services.db.transaction(async (trx) => {
    // The number's holder is checked (and locked) before its subscription is touched: see connectBot.
    await assertIdentityFree(trx, services.platforms, {
      ownerId: principal.ownerId,
      profileId: input.profileId,
      platform: 'chatapp-cloud',
      platformAccountId: checked.identity.platformAccountId,
    });
    if (!checked.registered && input.pin) {
      await adapter.register(input.accessToken, input.phoneNumberId, input.pin).catch((error: unknown) => connectionProblem(error, 'PIN'));
    }
    await adapter.subscribe(input.accessToken, input.wabaId).catch(subscriptionProblem);
    return saveConnectedAccount(
      services,
      principal,
      { profileId: input.profileId, platform: 'chatapp-cloud', identity: checked.identity, credentials },
      trx,
    );
  });
  return created ? { status: 201, body: presentAccount(row) } : { status: 200, body: presentAccount(row) };
};
