import type { components } from '../../../generated/api.js';
import type { Platforms } from '../../platforms/registry.js';
import type { AccountRow, AdAccountRow } from './models.js';

type Account = components['schemas']['Account'];
type AdAccount = components['schemas']['AdAccount'];
type AccountHealth = components['schemas']['AccountHealth'];

/** What an account and an ad account show alike. */
function presentConnection(row: AccountRow | AdAccountRow) {
  return {
    id: row.id,
    profileId: row.profileId,
    name: row.name,
    status: row.status,
    statusReason: row.statusReason as Account['statusReason'] & AdAccount['statusReason'],
    tokenExpiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentAccount(row: AccountRow): Account {
  return {
    ...presentConnection(row),
    platform: row.platform as Account['platform'],
    kind: row.kind as Account['kind'],
    platformAccountId: row.platformAccountId,
    username: row.username,
    avatarUrl: row.avatarUrl,
    scopes: row.scopes,
    connectedAt: row.connectedAt?.toISOString() ?? null,
  };
}

export function presentAdAccount(row: AdAccountRow): AdAccount {
  return {
    ...presentConnection(row),
    platform: row.platform,
    platformAdAccountId: row.platformAdAccountId,
    currency: row.currency,
    timezone: row.timezone,
    platformStatus: row.platformStatus as AdAccount['platformStatus'],
    connectedAt: row.connectedAt.toISOString(),
  };
}

function latest(dates: Array<Date | null>): Date | null {
  const times = dates.filter((date): date is Date => date !== null).map((date) => date.getTime());
  return times.length === 0 ? null : new Date(Math.max(...times));
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** What an account's platform does that the account's health depends on, from the platform's capabilities. */
export interface HealthFacts {
  /** The service refreshes the account's token itself, so its nearing expiry asks nothing of the user. */
  refreshable: boolean;
  /** The account is a live session the worker holds (paired by a QR code), not a login: it is paired again. */
  paired: boolean;
}

export function healthFacts(platforms: Platforms, platform: string): HealthFacts {
  const adapter = platforms.get(platform);
  return { refreshable: adapter?.refresh !== undefined, paired: adapter?.sessionMessaging !== undefined };
}

/** What the records say about an account's health, and what the user must do. */
export function presentHealth(row: AccountRow, { refreshable, paired }: HealthFacts, now = Date.now()): AccountHealth {
  const expiresSoon = !refreshable && row.tokenExpiresAt !== null && row.tokenExpiresAt.getTime() - now < WEEK_MS;
  const passingError =
    row.lastError !== null &&
    (row.lastError.code === 'rate_limited' || row.lastError.code === 'platform_unavailable') &&
    (row.lastSuccessAt === null || Date.parse(row.lastError.at) > row.lastSuccessAt.getTime());
  const checkedAt = latest([row.lastError ? new Date(row.lastError.at) : null, row.lastSuccessAt, row.platformCheckedAt]);
  let health: AccountHealth['health'] = 'healthy';
  let action: AccountHealth['action'] = 'none';
  let message = 'Connected and working.';
  if (row.status === 'needs_reconnection') {
    health = 'unhealthy';
    action = row.statusReason === 'permission_missing' ? 'grant_permissions' : paired ? 'pair' : 'reconnect';
    message = row.lastError?.message
      ? `Reconnect the account: ${row.lastError.message}`
      : 'Reconnect the account: the platform no longer accepts its credentials.';
  } else if (row.status === 'pending') {
    health = 'unhealthy';
    action = 'pair';
    message = 'Waiting to be paired: scan the QR code.';
  } else if (row.status === 'disconnected') {
    health = 'unhealthy';
    action = 'reconnect';
    message = 'Disconnected; connect it again to use it.';
  } else if (row.platformProblem) {
    // A paired session being resumed asks nothing of the user; a platform side gone elsewhere is repaired by connecting.
    health = 'degraded';
    action = paired ? 'wait' : 'reconnect';
    message = paired ? row.platformProblem : `${row.platformProblem} Connect the account again to repair it.`;
  } else if (passingError) {
    health = 'degraded';
    action = 'wait';
    message = `The platform is throttling or failing; the service retries (${row.lastError!.message}).`;
  } else if (row.lastError?.code === 'lead_access_refused') {
    // The account works; only its leads are withheld, and a page admin, not a reconnection, gives them back.
    health = 'degraded';
    action = 'grant_lead_access';
    message =
      "The platform refuses the page's leads to the app: a page admin must give it access in the page's Leads Access Manager. Its leads are kept and read once access is given.";
  } else if (expiresSoon) {
    health = 'degraded';
    action = 'reconnect';
    message = 'The token expires within 7 days and cannot be refreshed; reconnect the account.';
  } else if (checkedAt === null) {
    health = 'unchecked';
    message = 'Connected, not checked yet: the service has neither used it nor checked it at the platform since it was connected.';
  }
  return {
    accountId: row.id,
    profileId: row.profileId,
    platform: row.platform as AccountHealth['platform'],
    kind: row.kind as AccountHealth['kind'],
    name: row.name,
    status: row.status,
    health,
    action,
    message,
    tokenExpiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    lastError: row.lastError,
    checkedAt: checkedAt?.toISOString() ?? null,
  };
}
