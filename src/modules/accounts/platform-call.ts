import type { ApiError } from '../../lib/errors.js';
import type { AccountId, AdAccountId } from '../../lib/ids.js';
import { PlatformError } from '../../platforms/errors.js';
import type { AdapterAccount, PlatformAdapter } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { recordPlatformOutcome } from './accounts.js';
import {
  AccountNotConnectedError,
  CapabilityUnsupportedError,
  PermissionMissingError,
  PlatformFailedError,
  PlatformRateLimitedError,
} from './errors.js';
import { type AccountRow, type AdAccountRow, type Connection, nounOf } from './models.js';
import { adapterAccount, checkedConnection, findAccount, findAdAccount } from './read.js';

/** A capability a platform may have: a member of its adapter (`publisher`, `webhooks`, …). */
export type Capability = keyof PlatformAdapter;
type Member<C extends Capability> = NonNullable<PlatformAdapter[C]>;

/** The adapter, known to have capability `C` and, when asked for, the part `P` of it (a publisher's `history`). */
export type CapableAdapter<C extends Capability, P extends keyof Member<C> = never> = PlatformAdapter & {
  [K in C]-?: Member<C> & { [Q in P]-?: NonNullable<Member<C>[Q]> };
};

export interface AccountCallOptions<C extends Capability, P extends keyof Member<C>> {
  /** The optional part of the capability this needs as well. */
  part?: P;
  /** Why the account's platform cannot do this, for the 422; by default the capability it lacks is named. */
  unsupported?: (platform: string) => string;
  /** Platform scopes the account must have been granted (`video.list`); 422 `permission_missing` names those it lacks. */
  scopes?: readonly string[];
  /** Turns a platform failure the caller knows better into its own error first (a post not found: 404). */
  handle?: (error: PlatformError) => void;
}

/** What a platform call acts for: an account or an ad account by id, or its row when the caller has read it already. */
export type ConnectionRef = { accountId: AccountId } | { adAccountId: AdAccountId } | Connection;
/** The row a call for `R` is given: an ad account's for an ad account, else an account's. */
export type RowOf<R extends ConnectionRef> = R extends { adAccountId: AdAccountId } | AdAccountRow ? AdAccountRow : AccountRow;

/**
 * The one way to act on an account or an ad account through its platform: the caller's (404 for another owner's,
 * 403 outside the key's profiles), a platform with the capability (422 `account_platform_unsupported`), connected
 * (409 `account_not_connected`) and granted the scopes asked for (422 `permission_missing`), then `call` with the
 * opened credentials. What the platform answers is recorded on it, and its failure becomes our problem.
 */
export async function withConnectedAccount<C extends Capability, T, R extends ConnectionRef, P extends keyof Member<C> = never>(
  services: Services,
  principal: Principal,
  target: R,
  capability: C,
  call: (adapter: CapableAdapter<C, P>, account: AdapterAccount, row: RowOf<R>) => Promise<T>,
  options: AccountCallOptions<C, P> = {},
): Promise<T> {
  const row = (await connectionOf(services, principal, target)) as RowOf<R>;
  const noun = nounOf(row.id);
  const adapter = services.platforms.get(row.platform);
  const provided = adapter?.[capability] as Record<PropertyKey, unknown> | undefined;
  if (!adapter || !provided || (options.part !== undefined && !provided[options.part as PropertyKey])) {
    const what = options.part === undefined ? String(capability) : `${String(capability)} ${String(options.part)}`;
    throw new CapabilityUnsupportedError(
      options.unsupported?.(row.platform) ?? `${row.platform} ${noun}s cannot do this: the platform offers apps no ${what}.`,
    );
  }
  assertConnected(row);
  const missing = (options.scopes ?? []).filter((scope) => !row.scopes.includes(scope));
  if (missing.length > 0) {
    throw new PermissionMissingError(
      `The ${noun} was connected without ${missing.join(' and ')}, which this needs. Connect the ${noun} again and grant it.`,
      missing.join(' '),
    );
  }
  return callForAccount(services, row, (account) => call(adapter as CapableAdapter<C, P>, account, row), options.handle);
}

function connectionOf(services: Services, principal: Principal, target: ConnectionRef): Promise<Connection> | Connection {
  if ('accountId' in target) return findAccount(services.db, principal, target.accountId);
  if ('adAccountId' in target) return findAdAccount(services.db, principal, target.adAccountId);
  return checkedConnection(principal, target, nounOf(target.id));
}

function assertConnected(row: Connection): void {
  if (row.status !== 'connected')
    throw new AccountNotConnectedError(`The ${nounOf(row.id)} is ${row.status.replace('_', ' ')}; connect it again.`);
}

/**
 * Calls the platform for a connected account and records what it said on the account (credentials refused mark
 * it for reconnection); a failure becomes our problem, after `handle` has had its say.
 */
async function callForAccount<T>(
  services: Services,
  row: Connection,
  call: (account: AdapterAccount) => Promise<T>,
  handle: (error: PlatformError) => void = () => {},
): Promise<T> {
  assertConnected(row);
  const account = adapterAccount(row, services.secrets);
  try {
    const result = await call(account);
    await recordPlatformOutcome(services.db, row.id, null);
    return result;
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    handle(error);
    await recordPlatformOutcome(services.db, row.id, error);
    throw platformProblem(error);
  }
}

/** What a platform's classified failure on an account is to the caller: the one mapping every area uses. */
export function platformProblem(error: PlatformError): ApiError {
  switch (error.kind) {
    case 'auth_expired':
      return new AccountNotConnectedError(`The platform refused the account's credentials (${error.message}); connect the account again.`);
    case 'permission_revoked':
      return new PermissionMissingError(
        `The platform refused for a permission the account lacks (${error.message}); connect the account again and grant it.`,
      );
    case 'rate_limited':
      return new PlatformRateLimitedError(error.message, error.details.retryAt);
    default:
      return new PlatformFailedError(`The platform failed: ${error.message}`);
  }
}
