import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { platformPage } from '../../lib/pagination.js';
import type { UsableAdAccount } from '../../platforms/capabilities/ads.js';
import { hasAdsPermission, type PendingGrant, pendingGrantOf } from '../../platforms/social-network/adapter.js';
import type { ManagedPage } from '../../platforms/social-network/pages.js';
import type { AdapterOf } from '../../platforms/registry.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { saveConnectedAdAccount } from '../accounts/ad-accounts.js';
import { AccountAlreadyConnectedError } from '../accounts/errors.js';
import { type AccountRow, type AdAccountRow, type Connection, platformIdOf } from '../accounts/models.js';
import { accountsAtPlatform, adAccountsAtPlatform } from '../accounts/read.js';
import { grantProblem, SelectionNotAvailableError } from './errors.js';
import { openPendingConnection, type PendingConnection } from './pending.js';
import { platformToConnect } from './platform.js';

const PLATFORM = 'social_network';
type Adapter = AdapterOf<typeof PLATFORM>;

type AvailablePage = components['schemas']['SocialNetworkAvailablePage'];
type AvailableAdAccount = components['schemas']['SocialNetworkAvailableAdAccount'];

/** A page of what the grant can connect, with the pending connection it belongs to. */
export interface Available<T> {
  data: T[];
  nextCursor: string | null;
  pendingConnectionId: string;
  expiresAt: string;
}

/**
 * What a grant connects of one kind (pages as accounts, ad accounts): how the platform lists and finds them for
 * the grant's user, which are connected already, and how a chosen one is subscribed to and saved.
 */
interface Asset<Item extends { id: string }, Row extends Connection, Shown> {
  /** How a refusal names one ("Page 123"). */
  noun: string;
  /** Refuses a grant that lacks this kind's permissions. */
  assertGranted?(grant: PendingGrant): void;
  list(adapter: Adapter, grant: PendingGrant, limit: number, cursor?: string): Promise<{ items: Item[]; nextCursor: string | null }>;
  find(adapter: Adapter, grant: PendingGrant, ids: string[]): Promise<Map<string, Item>>;
  /** Whether a found one can be connected by this grant (a page needs its page token). */
  usable?(item: Item): boolean;
  /** The owner's ones with these platform ids (of `profileId` only, when given), disconnected ones too. */
  connected(db: Knex, ownerId: string, ids: string[], profileId?: string): Promise<Row[]>;
  show(item: Item, connectedId: string | null): Shown;
  subscribe(services: Services, adapter: Adapter, item: Item, grant: PendingGrant): Promise<void>;
  save(
    services: Services,
    principal: Principal,
    pending: PendingConnection,
    grant: PendingGrant,
    item: Item,
    trx: Knex.Transaction,
  ): Promise<Row>;
}

/**
 * A page's and an ad account's webhooks (messages and comments; issues, review outcomes and recommendations) reach
 * us only for fields the app subscribes to as well; an operator may have set these up in the app's dashboard instead
 * (or our address may not be reachable from the platform), so this is best effort.
 */
async function subscribeApp(services: Services, adapter: Adapter): Promise<void> {
  await adapter
    .ensureAppSubscriptions()
    .catch((error: unknown) => services.logger.warn({ err: error }, 'subscribing the app to webhooks failed'));
}

/** Pages, connected with their page tokens (which do not expire). */
const PAGES: Asset<ManagedPage, AccountRow, AvailablePage> = {
  noun: 'Page',
  list: (adapter, grant, limit, cursor) => adapter.pages.list(grant.userToken, limit, cursor),
  find: (adapter, grant, ids) => adapter.pages.find(grant.userToken, ids),
  usable: (page) => Boolean(page.accessToken),
  connected: (db, ownerId, ids, profileId) => accountsAtPlatform(db, ownerId, PLATFORM, ids, profileId),
  show: (page, accountId) => ({
    platformPageId: page.id,
    name: page.name,
    category: page.category,
    pictureUrl: page.pictureUrl,
    tasks: page.tasks,
    connected: accountId !== null,
    accountId,
  }),
  subscribe: async (services, adapter, page) => {
    await subscribeApp(services, adapter);
    await adapter.pages.subscribe(page.id, page.accessToken);
  },
  save: async (services, principal, pending, grant, page, trx) =>
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
};

/** Ad accounts, connected with the grant's long-lived user token (about 60 days, refreshed before it ends). */
const AD_ACCOUNTS: Asset<UsableAdAccount, AdAccountRow, AvailableAdAccount> = {
  noun: 'Ad account',
  assertGranted: (grant) => {
    if (!hasAdsPermission(grant)) {
      throw new SelectionNotAvailableError(
        'The ads permissions (ads_management or ads_read) were not granted; start the connection again and allow them.',
      );
    }
  },
  list: (adapter, grant, limit, cursor) => adapter.ads.adAccounts(grant.userToken, limit, cursor),
  find: (adapter, grant, ids) => adapter.ads.findAdAccounts(grant.userToken, ids),
  connected: (db, ownerId, ids, profileId) => adAccountsAtPlatform(db, ownerId, PLATFORM, ids, profileId),
  show: (adAccount, adAccountId) => ({
    platformAdAccountId: adAccount.id,
    name: adAccount.name,
    currency: adAccount.currency,
    timezone: adAccount.timezone,
    platformStatus: adAccount.platformStatus,
    businessName: adAccount.businessName,
    tasks: adAccount.tasks,
    connected: adAccountId !== null,
    adAccountId,
  }),
  subscribe: async (services, adapter, adAccount, grant) => {
    await subscribeApp(services, adapter);
    await adapter.ads.subscribeAdAccount(adAccount.id, grant.userToken);
  },
  save: (services, principal, pending, grant, adAccount, trx) =>
    saveConnectedAdAccount(
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
        scopes: grant.scopes,
        platformUserId: grant.userId,
        credentials: { accessToken: grant.userToken, extra: { userId: grant.userId } },
      },
      trx,
    ),
};

async function open<Item extends { id: string }, Row extends Connection, Shown>(
  services: Services,
  principal: Principal,
  profileId: string,
  pendingConnectionId: string | undefined,
  asset: Asset<Item, Row, Shown>,
) {
  const pending = await openPendingConnection(services, principal, profileId, pendingConnectionId, PLATFORM);
  const grant = pendingGrantOf(pending.credentials);
  asset.assertGranted?.(grant);
  return { pending, grant, adapter: platformToConnect(services, PLATFORM) };
}

/** What the grant's user can connect of one kind, each marked when it is connected to the profile already. */
async function available<Item extends { id: string }, Row extends Connection, Shown>(
  services: Services,
  principal: Principal,
  profileId: string,
  query: {
    pendingConnectionId?: string;
    limit?: number;
    cursor?: string;
  },
  asset: Asset<Item, Row, Shown>,
): Promise<Available<Shown>> {
  const { pending, grant, adapter } = await open(services, principal, profileId, query.pendingConnectionId, asset);
  const page = await platformPage(query, async ({ limit, after }) => {
    const found = await asset.list(adapter, grant, limit, after).catch(grantProblem);
    return { data: found.items, next: found.nextCursor };
  });
  const connected = await asset.connected(
    services.db,
    principal.ownerId,
    page.data.map((item) => item.id),
    pending.profileId,
  );
  const idOf = new Map(connected.filter((row) => row.status !== 'disconnected').map((row) => [platformIdOf(row), row.id]));
  const data = page.data.map((item) => asset.show(item, idOf.get(item.id) ?? null));
  return { data, nextCursor: page.nextCursor, pendingConnectionId: pending.id, expiresAt: pending.expiresAt.toISOString() };
}

/**
 * Connects the chosen ones, all or none: each is checked to be the user's and free (one already in another
 * profile of the owner stops it before the platform is touched), subscribed to our webhooks, then all are saved
 * in one transaction.
 */
async function connectChosen<Item extends { id: string }, Row extends Connection, Shown>(
  services: Services,
  principal: Principal,
  profileId: string,
  pendingConnectionId: string,
  ids: string[],
  asset: Asset<Item, Row, Shown>,
): Promise<Row[]> {
  const { pending, grant, adapter } = await open(services, principal, profileId, pendingConnectionId, asset);
  const found = await asset.find(adapter, grant, ids).catch(grantProblem);
  const missing = ids.filter((id) => !found.has(id) || asset.usable?.(found.get(id)!) === false);
  if (missing.length)
    throw new SelectionNotAvailableError(`${asset.noun} ${missing.join(', ')} is not available to the user who granted this connection.`);
  const taken = (await asset.connected(services.db, principal.ownerId, ids)).find(
    (row) => row.profileId !== pending.profileId && row.status !== 'disconnected',
  );
  if (taken) {
    throw new AccountAlreadyConnectedError(
      `${asset.noun} ${platformIdOf(taken)} is connected to another profile (${taken.profileId}). Disconnect it there first.`,
    );
  }
  for (const id of ids) await asset.subscribe(services, adapter, found.get(id)!, grant).catch(grantProblem);
  return services.db.transaction(async (trx) => {
    const saved: Row[] = [];
    for (const id of ids) saved.push(await asset.save(services, principal, pending, grant, found.get(id)!, trx));
    return saved;
  });
}

type SelectionQuery = { pendingConnectionId?: string; limit?: number; cursor?: string };

/** The pages the grant's user manages, each marked when it is connected to the profile already. */
export function availablePages(services: Services, principal: Principal, profileId: string, query: SelectionQuery) {
  return available(services, principal, profileId, query, PAGES);
}

/** Connects the chosen pages with their page tokens, all or none. */
export function connectPages(
  services: Services,
  principal: Principal,
  profileId: string,
  input: { pendingConnectionId: string; platformPageIds: string[] },
): Promise<AccountRow[]> {
  return connectChosen(services, principal, profileId, input.pendingConnectionId, input.platformPageIds, PAGES);
}

/** The ad accounts the grant's user can reach, each marked when it is connected to the profile already. */
export function availableAdAccounts(services: Services, principal: Principal, profileId: string, query: SelectionQuery) {
  return available(services, principal, profileId, query, AD_ACCOUNTS);
}

/** Connects the chosen ad accounts with the grant's user token, all or none. */
export function connectAdAccounts(
  services: Services,
  principal: Principal,
  profileId: string,
  input: { pendingConnectionId: string; platformAdAccountIds: string[] },
): Promise<AdAccountRow[]> {
  return connectChosen(services, principal, profileId, input.pendingConnectionId, input.platformAdAccountIds, AD_ACCOUNTS);
}
