import type { components } from '../../../generated/api.js';
import { type Handler, principalOf } from '../../http/handler.js';
import { ApiError, UnprocessableError } from '../../lib/errors.js';
import { PlatformError } from '../../platforms/errors.js';
import { hasAdsPermission, type PendingGrant, pendingGrantOf } from '../../platforms/social-network/adapter.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { presentAdAccount, saveConnectedAdAccount } from '../accounts/ad-accounts.js';
import { AccountRow, AdAccountRow } from '../accounts/models.js';
import { presentAccount } from '../accounts/present.js';
import { openPendingConnection, type PendingConnection } from './pending.js';
import { platformToConnect } from './platform.js';

const PLATFORM = 'social_network';

/** The platform failed or refused the grant: nothing we can fix here, so 502 with its own words. */
function platformProblem(error: unknown): never {
  if (!(error instanceof PlatformError)) throw error;
  const hint = error.needsReconnection ? ' The grant is no longer valid; start the connection again.' : '';
  throw new ApiError(502, 'platform_error', 'The platform failed', `The platform failed: ${error.message}.${hint}`);
}

function notAvailable(detail: string): never {
  throw new UnprocessableError('selection_not_available', 'Selection not available', detail);
}

async function open(services: Services, principal: Principal, profileId: string, pendingConnectionId: string) {
  const pending = await openPendingConnection(services, principal, profileId, pendingConnectionId, PLATFORM);
  return { pending, grant: pendingGrantOf(pending.credentials) };
}

function requireAds(grant: PendingGrant): void {
  if (!hasAdsPermission(grant)) notAvailable('The ads permissions (ads_management or ads_read) were not granted; start the connection again and allow them.');
}

/** Connecting all or none: a chosen asset already in another profile of the owner stops it before the platform is touched. */
function assertFree(rows: Array<{ profileId: string; status: string }>, pending: PendingConnection, what: (row: never) => string): void {
  const taken = rows.find((row) => row.profileId !== pending.profileId && row.status !== 'disconnected');
  if (taken) {
    throw new ApiError(409, 'account_already_connected', 'Account already connected',
      `${what(taken as never)} is connected to another profile (${taken.profileId}). Disconnect it there first.`);
  }
}

const tail = (pending: PendingConnection) => ({ pendingConnectionId: pending.id, expiresAt: pending.expiresAt.toISOString() });

export const listAvailableSocialNetworkPages: Handler<'listAvailableSocialNetworkPages'> = async (request, services) => {
  const principal = principalOf(request);
  const { pending, grant } = await open(services, principal, request.params.id, request.query.pendingConnectionId);
  const page = await platformToConnect(services, PLATFORM).pages.list(grant.userToken, request.query.limit ?? 20, request.query.cursor).catch(platformProblem);
  const ids = page.items.map((item) => item.id);
  const connected = ids.length === 0 ? [] : await AccountRow.query(services.db)
    .where({ ownerId: principal.ownerId, profileId: pending.profileId, platform: PLATFORM }).whereIn('platformAccountId', ids).whereNot({ status: 'disconnected' });
  const accountOf = new Map(connected.map((row) => [row.platformAccountId, row.id]));
  const data: Array<components['schemas']['SocialNetworkAvailablePage']> = page.items.map((item) => ({
    platformPageId: item.id, name: item.name, category: item.category, pictureUrl: item.pictureUrl, tasks: item.tasks,
    connected: accountOf.has(item.id), accountId: accountOf.get(item.id) ?? null,
  }));
  return { status: 200, body: { data, nextCursor: page.nextCursor, ...tail(pending) } };
};

/**
 * Connects the chosen pages with their page tokens (which do not expire), all or none: each is checked to be
 * the user's, subscribed to our webhooks, then every account is saved in one transaction.
 */
export const connectSocialNetworkPages: Handler<'connectSocialNetworkPages'> = async (request, services) => {
  const principal = principalOf(request);
  const { pending, grant } = await open(services, principal, request.params.id, request.body.pendingConnectionId);
  const ids = request.body.platformPageIds;
  const adapter = platformToConnect(services, PLATFORM);
  const pages = await adapter.pages.find(grant.userToken, ids).catch(platformProblem);
  const missing = ids.filter((id) => !pages.get(id)?.accessToken);
  if (missing.length) notAvailable(`Page ${missing.join(', ')} is not managed by the user who granted this connection.`);
  assertFree(await AccountRow.query(services.db).where({ ownerId: principal.ownerId, platform: PLATFORM }).whereIn('platformAccountId', ids),
    pending, (row: AccountRow) => `Page ${row.platformAccountId}`);
  // Page webhooks reach us only for fields the app subscribes to as well; an operator may have set these up in
  // the app's dashboard instead (or our address may not be reachable from the platform), so this is best effort.
  await adapter.ensureAppSubscriptions().catch((error: unknown) => services.logger.warn({ err: error }, 'subscribing the app to page webhooks failed'));
  for (const id of ids) await adapter.pages.subscribe(id, pages.get(id)!.accessToken).catch(platformProblem);
  const rows = await services.db.transaction(async (trx) => {
    const saved: AccountRow[] = [];
    for (const id of ids) {
      const page = pages.get(id)!;
      saved.push((await saveConnectedAccount(services, principal, {
        profileId: pending.profileId, platform: PLATFORM,
        identity: {
          platformAccountId: page.id, kind: 'page', name: page.name, username: page.username, avatarUrl: page.pictureUrl,
          scopes: page.tasks, tokenExpiresAt: null, platformUserId: grant.userId,
        },
        credentials: { accessToken: page.accessToken, extra: { userId: grant.userId } },
      }, trx)).row);
    }
    return saved;
  });
  return { status: 201, body: { data: rows.map(presentAccount) } };
};

export const listAvailableSocialNetworkAdAccounts: Handler<'listAvailableSocialNetworkAdAccounts'> = async (request, services) => {
  const principal = principalOf(request);
  const { pending, grant } = await open(services, principal, request.params.id, request.query.pendingConnectionId);
  requireAds(grant);
  const page = await platformToConnect(services, PLATFORM).ads.adAccounts(grant.userToken, request.query.limit ?? 20, request.query.cursor).catch(platformProblem);
  const ids = page.items.map((item) => item.id);
  const connected = ids.length === 0 ? [] : await AdAccountRow.query(services.db)
    .where({ ownerId: principal.ownerId, profileId: pending.profileId, platform: PLATFORM }).whereIn('platformAdAccountId', ids).whereNot({ status: 'disconnected' });
  const adAccountOf = new Map(connected.map((row) => [row.platformAdAccountId, row.id]));
  const data: Array<components['schemas']['SocialNetworkAvailableAdAccount']> = page.items.map((item) => ({
    platformAdAccountId: item.id, name: item.name, currency: item.currency, timezone: item.timezone, platformStatus: item.platformStatus,
    businessName: item.businessName, tasks: item.tasks, connected: adAccountOf.has(item.id), adAccountId: adAccountOf.get(item.id) ?? null,
  }));
  return { status: 200, body: { data, nextCursor: page.nextCursor, ...tail(pending) } };
};

/** Connects the chosen ad accounts with the grant's long-lived user token (about 60 days), all or none. */
export const connectSocialNetworkAdAccounts: Handler<'connectSocialNetworkAdAccounts'> = async (request, services) => {
  const principal = principalOf(request);
  const { pending, grant } = await open(services, principal, request.params.id, request.body.pendingConnectionId);
  requireAds(grant);
  const ids = request.body.platformAdAccountIds;
  const adapter = platformToConnect(services, PLATFORM);
  const found = await adapter.ads.findAdAccounts(grant.userToken, ids).catch(platformProblem);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) notAvailable(`Ad account ${missing.join(', ')} is not available to the user who granted this connection.`);
  assertFree(await AdAccountRow.query(services.db).where({ ownerId: principal.ownerId, platform: PLATFORM }).whereIn('platformAdAccountId', ids),
    pending, (row: AdAccountRow) => `Ad account ${row.platformAdAccountId}`);
  for (const id of ids) await adapter.ads.subscribeAdAccount(id, grant.userToken).catch(platformProblem);
  const rows = await services.db.transaction(async (trx) => {
    const saved: AdAccountRow[] = [];
    for (const id of ids) {
      const adAccount = found.get(id)!;
      saved.push(await saveConnectedAdAccount(services, principal, pending.profileId, PLATFORM, {
        platformAdAccountId: adAccount.id, name: adAccount.name, currency: adAccount.currency, timezone: adAccount.timezone,
        platformStatus: adAccount.platformStatus, tokenExpiresAt: grant.expiresAt, platformUserId: grant.userId,
        credentials: { accessToken: grant.userToken, extra: { userId: grant.userId } },
      }, trx));
    }
    return saved;
  });
  return { status: 201, body: { data: rows.map(presentAdAccount) } };
};
