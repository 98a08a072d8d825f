import type { components } from '../../../generated/api.js';
import { platformPage } from '../../lib/pagination.js';
import { hasAdsPermission, type PendingGrant, pendingGrantOf } from '../../platforms/social-network/adapter.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { saveConnectedAdAccount } from '../accounts/ad-accounts.js';
import { AccountAlreadyConnectedError } from '../accounts/errors.js';
import type { AccountRow, AdAccountRow } from '../accounts/models.js';
import { accountsAtPlatform, adAccountsAtPlatform } from '../accounts/read.js';
import { grantProblem, SelectionNotAvailableError } from './errors.js';
import { openPendingConnection, type PendingConnection } from './pending.js';
import { platformToConnect } from './platform.js';

const PLATFORM = 'social_network';

type AvailablePage = components['schemas']['SocialNetworkAvailablePage'];
type AvailableAdAccount = components['schemas']['SocialNetworkAvailableAdAccount'];

/** A page of what the grant can connect, with the pending connection it belongs to. */
export interface Available<T> {
  data: T[];
  nextCursor: string | null;
  pendingConnectionId: string;
  expiresAt: string;
}

async function open(services: Services, principal: Principal, profileId: string, pendingConnectionId: string) {
  const pending = await openPendingConnection(services, principal, profileId, pendingConnectionId, PLATFORM);
  return { pending, grant: pendingGrantOf(pending.credentials) };
}

function requireAds(grant: PendingGrant): void {
  if (!hasAdsPermission(grant)) {
    throw new SelectionNotAvailableError(
      'The ads permissions (ads_management or ads_read) were not granted; start the connection again and allow them.',
    );
  }
}

/** Connecting all or none: a chosen asset already in another profile of the owner stops it before the platform is touched. */
function assertFree<Row extends { profileId: string; status: string }>(
  rows: Row[],
  pending: PendingConnection,
  what: (row: Row) => string,
): void {
  const taken = rows.find((row) => row.profileId !== pending.profileId && row.status !== 'disconnected');
  if (taken)
    throw new AccountAlreadyConnectedError(
      `${what(taken)} is connected to another profile (${taken.profileId}). Disconnect it there first.`,
    );
}

const tail = (pending: PendingConnection) => ({ pendingConnectionId: pending.id, expiresAt: pending.expiresAt.toISOString() });

/** The pages the grant's user manages, each marked when it is connected to the profile already. */
export async function availablePages(
  services: Services,
  principal: Principal,
  profileId: string,
  query: {
    pendingConnectionId: string;
    limit?: number;
    cursor?: string;
  },
): Promise<Available<AvailablePage>> {
  const { pending, grant } = await open(services, principal, profileId, query.pendingConnectionId);
  const page = await platformPage(query, async ({ limit, after }) => {
    const found = await platformToConnect(services, PLATFORM).pages.list(grant.userToken, limit, after).catch(grantProblem);
    return { data: found.items, next: found.nextCursor };
  });
  const connected = await accountsAtPlatform(
    services.db,
    principal.ownerId,
    PLATFORM,
    page.data.map((item) => item.id),
    pending.profileId,
  );
  const accountOf = new Map(connected.filter((row) => row.status !== 'disconnected').map((row) => [row.platformAccountId, row.id]));
  const data = page.data.map((item) => ({
    platformPageId: item.id,
    name: item.name,
    category: item.category,
    pictureUrl: item.pictureUrl,
    tasks: item.tasks,
    connected: accountOf.has(item.id),
    accountId: accountOf.get(item.id) ?? null,
  }));
  return { data, nextCursor: page.nextCursor, ...tail(pending) };
}

/**
 * Connects the chosen pages with their page tokens (which do not expire), all or none: each is checked to be
 * the user's, subscribed to our webhooks, then every account is saved in one transaction.
 */
export async function connectPages(
  services: Services,
  principal: Principal,
  profileId: string,
  input: {
    pendingConnectionId: string;
    platformPageIds: string[];
  },
): Promise<AccountRow[]> {
  const { pending, grant } = await open(services, principal, profileId, input.pendingConnectionId);
  const ids = input.platformPageIds;
  const adapter = platformToConnect(services, PLATFORM);
  const pages = await adapter.pages.find(grant.userToken, ids).catch(grantProblem);
  const missing = ids.filter((id) => !pages.get(id)?.accessToken);
  if (missing.length)
    throw new SelectionNotAvailableError(`Page ${missing.join(', ')} is not managed by the user who granted this connection.`);
  assertFree(await accountsAtPlatform(services.db, principal.ownerId, PLATFORM, ids), pending, (row) => `Page ${row.platformAccountId}`);
  // Page webhooks reach us only for fields the app subscribes to as well; an operator may have set these up in
  // the app's dashboard instead (or our address may not be reachable from the platform), so this is best effort.
  await adapter
    .ensureAppSubscriptions()
    .catch((error: unknown) => services.logger.warn({ err: error }, 'subscribing the app to page webhooks failed'));
  for (const id of ids) await adapter.pages.subscribe(id, pages.get(id)!.accessToken).catch(grantProblem);
  return services.db.transaction(async (trx) => {
    const saved: AccountRow[] = [];
    for (const id of ids) {
      const page = pages.get(id)!;
      saved.push(
        (
          await saveConnectedAccount(
            services,
            principal,
            {
              profileId: pending.profileId,
              platform: PLATFORM,
              identity: {
                platformAccountId: page.id,
                kind: 'page',
                name: page.name,
                username: page.username,
                avatarUrl: page.pictureUrl,
                // What the person granted the app; the page's tasks (their roles on it) are not permissions.
                scopes: grant.scopes,
                tokenExpiresAt: null,
                platformUserId: grant.userId,
              },
              credentials: { accessToken: page.accessToken, extra: { userId: grant.userId } },
            },
            trx,
          )
        ).row,
      );
    }
    return saved;
  });
}

/** The ad accounts the grant's user can reach, each marked when it is connected to the profile already. */
export async function availableAdAccounts(
  services: Services,
  principal: Principal,
  profileId: string,
  query: {
    pendingConnectionId: string;
    limit?: number;
    cursor?: string;
  },
): Promise<Available<AvailableAdAccount>> {
  const { pending, grant } = await open(services, principal, profileId, query.pendingConnectionId);
  requireAds(grant);
  const page = await platformPage(query, async ({ limit, after }) => {
    const found = await platformToConnect(services, PLATFORM).ads.adAccounts(grant.userToken, limit, after).catch(grantProblem);
    return { data: found.items, next: found.nextCursor };
  });
  const connected = await adAccountsAtPlatform(
    services.db,
    principal.ownerId,
    PLATFORM,
    page.data.map((item) => item.id),
    pending.profileId,
  );
  const adAccountOf = new Map(connected.filter((row) => row.status !== 'disconnected').map((row) => [row.platformAdAccountId, row.id]));
  const data = page.data.map((item) => ({
    platformAdAccountId: item.id,
    name: item.name,
    currency: item.currency,
    timezone: item.timezone,
    platformStatus: item.platformStatus,
    businessName: item.businessName,
    tasks: item.tasks,
    connected: adAccountOf.has(item.id),
    adAccountId: adAccountOf.get(item.id) ?? null,
  }));
  return { data, nextCursor: page.nextCursor, ...tail(pending) };
}

/** Connects the chosen ad accounts with the grant's long-lived user token (about 60 days), all or none. */
export async function connectAdAccounts(
  services: Services,
  principal: Principal,
  profileId: string,
  input: {
    pendingConnectionId: string;
    platformAdAccountIds: string[];
  },
): Promise<AdAccountRow[]> {
  const { pending, grant } = await open(services, principal, profileId, input.pendingConnectionId);
  requireAds(grant);
  const ids = input.platformAdAccountIds;
  const adapter = platformToConnect(services, PLATFORM);
  const found = await adapter.ads.findAdAccounts(grant.userToken, ids).catch(grantProblem);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw new SelectionNotAvailableError(`Ad account ${missing.join(', ')} is not available to the user who granted this connection.`);
  assertFree(
    await adAccountsAtPlatform(services.db, principal.ownerId, PLATFORM, ids),
    pending,
    (row) => `Ad account ${row.platformAdAccountId}`,
  );
  for (const id of ids) await adapter.ads.subscribeAdAccount(id, grant.userToken).catch(grantProblem);
  return services.db.transaction(async (trx) => {
    const saved: AdAccountRow[] = [];
    for (const id of ids) {
      const adAccount = found.get(id)!;
      saved.push(
        await saveConnectedAdAccount(
          services,
          principal,
          pending.profileId,
          PLATFORM,
          {
            platformAdAccountId: adAccount.id,
            name: adAccount.name,
            currency: adAccount.currency,
            timezone: adAccount.timezone,
            platformStatus: adAccount.platformStatus,
            tokenExpiresAt: grant.expiresAt,
            platformUserId: grant.userId,
            credentials: { accessToken: grant.userToken, extra: { userId: grant.userId } },
          },
          trx,
        ),
      );
    }
    return saved;
  });
}
