import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import type { AccountRow } from '../accounts/models.js';
import { findProfile } from '../accounts/profiles.js';
import { accountsAtPlatform } from '../accounts/read.js';
import { platformToConnect } from './platform.js';
import { connectionProblem } from './errors.js';

/**
 * Verifies the bot token, points the bot's webhook at us, and saves the account (a repair keeps its id). The
 * account id is chosen before the platform call because the webhook secret carries it.
 */
export async function connectBot(
  services: Services,
  principal: Principal,
  input: { profileId: string; botToken: string },
): Promise<{ row: AccountRow; created: boolean }> {
  await findProfile(services.db, principal, input.profileId);
  const botId = input.botToken.split(':')[0] ?? '';
  const [existing] = await accountsAtPlatform(services.db, principal.ownerId, 'botchat', [botId]);
  const accountId = existing?.id ?? newId('acc');
  const connected = await platformToConnect(services, 'botchat')
    .connect(input.botToken, accountId)
    .catch((error: unknown) => connectionProblem(error, 'bot token'));
  return saveConnectedAccount(services, principal, {
    profileId: input.profileId,
    platform: 'botchat',
    identity: connected.identity,
    credentials: connected.credentials,
    id: accountId,
  });
}
