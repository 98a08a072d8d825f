import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { assertIdentityFree } from '../accounts/identity.js';
import type { AccountRow } from '../accounts/models.js';
import { findProfile } from '../accounts/profiles.js';
import { accountsAtPlatform } from '../accounts/read.js';
import { assertReachableBy, platformToConnect } from './platform.js';
import { connectionProblem } from './errors.js';

/**
 * Verifies the bot token, points the bot's webhook at us, and saves the account (a repair keeps its id). The
 * account id is chosen before the platform call because the webhook secret carries it. The bot's holder is
 * checked (and locked) before its webhook is moved, in the transaction that saves the account: a bot held by
 * another profile or owner keeps its webhook, and two owners connecting it at once take turns.
 */
export async function connectBot(
  services: Services,
  principal: Principal,
  input: { profileId: string; botToken: string },
): Promise<{ row: AccountRow; created: boolean }> {
  await findProfile(services.db, principal, input.profileId);
  const adapter = platformToConnect(services, 'botchat');
  assertReachableBy(services, 'botchat');
  const identity = await adapter.identify(input.botToken).catch((error: unknown) => connectionProblem(error, 'bot token'));
  const { platformAccountId } = identity;
  return services.db.transaction(async (trx) => {
    await assertIdentityFree(trx, services.platforms, {
      ownerId: principal.ownerId,
      profileId: input.profileId,
      platform: 'botchat',
      platformAccountId,
    });
    const [existing] = await accountsAtPlatform(trx, principal.ownerId, 'botchat', [platformAccountId]);
    const accountId = existing?.id ?? newId('acc');
    const credentials = await adapter.attach(input.botToken, accountId).catch((error: unknown) => connectionProblem(error, 'bot token'));
    return saveConnectedAccount(
      services,
      principal,
      { profileId: input.profileId, platform: 'botchat', identity, credentials, id: accountId },
      trx,
    );
  });
}
