import { idOf } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { attachmentRef } from './messages.js';

/** A received file, downloaded from the platform with the account's credentials. */
export async function downloadAttachment(
  services: Services,
  principal: Principal,
  accountId: string,
  messageId: string,
  index: number,
): Promise<{ bytes: Buffer; mimeType: string | null }> {
  const ref = await attachmentRef(services.db, principal, accountId, messageId, index);
  const target = { accountId: idOf('acc', accountId) };
  return withConnectedAccount(services, principal, target, 'messaging', (adapter, account) => adapter.messaging.download(account, ref), {
    part: 'download',
  });
}
