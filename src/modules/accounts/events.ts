import type { components } from '../../../generated/api.js';
import type { AccountRow, AdAccountRow } from './models.js';

type Connected = components['schemas']['AccountConnectedData'];
type Disconnected = components['schemas']['AccountDisconnectedData'];
type NeedsReconnection = components['schemas']['AccountNeedsReconnectionData'];

/** Who the account is, as every `account.*` event names it: an account or an ad account alike. */
function identity(
  row: AccountRow | AdAccountRow,
): Pick<Connected, 'accountId' | 'accountType' | 'platform' | 'platformAccountId' | 'name'> {
  const ad = 'platformAdAccountId' in row;
  return {
    accountId: row.id,
    accountType: ad ? 'ad_account' : 'account',
    platform: row.platform as Connected['platform'],
    platformAccountId: ad ? row.platformAdAccountId : row.platformAccountId,
    name: row.name,
  };
}

/** The data of `account.connected`, `account.disconnected` (by the user) or `account.needs_reconnection` (why, in words). */
export function accountEventData(row: AccountRow | AdAccountRow, status: 'connected'): Connected;
export function accountEventData(row: AccountRow | AdAccountRow, status: 'disconnected'): Disconnected;
export function accountEventData(
  row: AccountRow | AdAccountRow,
  status: 'needs_reconnection',
  reason: NeedsReconnection['statusReason'],
  detail: string,
): NeedsReconnection;
export function accountEventData(
  row: AccountRow | AdAccountRow,
  status: 'connected' | 'disconnected' | 'needs_reconnection',
  reason?: NeedsReconnection['statusReason'],
  detail?: string,
): Connected | Disconnected | NeedsReconnection {
  if (status === 'connected') return { ...identity(row), status, statusReason: null };
  if (status === 'disconnected') return { ...identity(row), status, statusReason: 'disconnected_by_user' };
  return { ...identity(row), status, statusReason: reason!, detail: detail! };
}
