import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { NotImplementedError, ValidationFailedError } from '../../lib/errors.js';
import { PlatformError } from '../../platforms/errors.js';
import { isOAuthAdapter, isSelectingFlow, type OAuthAdapter, type OAuthGrant } from '../../platforms/capabilities/oauth.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { saveConnectedAdAccount } from '../accounts/ad-accounts.js';
import { PlanLimitReachedError } from '../usage/errors.js';
import { AccountAlreadyConnectedError } from '../accounts/errors.js';
import type { AdAccountRow } from '../accounts/models.js';
import { findProfile } from '../accounts/profiles.js';
import { OAuthStateInvalidError } from './errors.js';
import { createPendingConnection } from './pending.js';
import { assertReachableBy, platformToConnect } from './platform.js';
import type { OAuthStateRow } from './rows.js';

const STATE_TTL_MS = 30 * 60 * 1000;

export interface Outcome {
  status: 'connected' | 'pending_selection' | 'denied' | 'failed' | 'expired';
  platform: string;
  profileId: string;
  accountIds?: string[];
  /** Ad accounts the grant covered (`short_video_ads`). */
  adAccountIds?: string[];
  pendingConnectionId?: string;
  error?: string;
  errorDescription?: string;
}

function adapterFor(services: Services, platform: string): OAuthAdapter {
  const adapter = platformToConnect(services, platform);
  if (!isOAuthAdapter(adapter)) throw new NotImplementedError(`Connecting ${platform} accounts`);
  return adapter;
}

export function callbackUrl(services: Services, platform: string): string {
  return `${services.config.publicUrl}/connect/${platform}/callback`;
}

/** A single-use state bound to owner, profile and platform, a PKCE verifier where used, and the consent URL. */
type OAuthPlatform = components['schemas']['OAuthPlatform'];

export async function startConnection(
  services: Services,
  principal: Principal,
  platform: OAuthPlatform,
  input: {
    profileId: string;
    redirectUrl?: string;
    include?: string[];
  },
): Promise<components['schemas']['ConnectAuthorization']> {
  const adapter = adapterFor(services, platform);
  assertReachableBy(services, platform);
  await findProfile(services.db, principal, input.profileId);
  if (input.include && platform !== 'search_suite') {
    throw new ValidationFailedError([{ path: 'query/include', message: 'is for search_suite only', code: 'include' }]);
  }
  const state = randomBytes(32).toString('base64url');
  const verifier = adapter.oauth.pkce ? randomBytes(48).toString('base64url') : null;
  const expiresAt = new Date(Date.now() + STATE_TTL_MS);
  const include = input.include ?? [];
  await services.db<OAuthStateRow>('oauthStates').insert({
    state,
    ownerId: principal.ownerId,
    profileId: input.profileId,
    platform,
    redirectUrl: input.redirectUrl ?? null,
    codeVerifierCiphertext: verifier ? services.secrets.seal(verifier) : null,
    include,
    expiresAt,
  });
  const authorizationUrl = adapter.oauth.authorizationUrl({
    state,
    redirectUri: callbackUrl(services, platform),
    include,
    codeChallenge: verifier
      ? createHash('sha256')
          .update(verifier)
          .digest(adapter.oauth.challengeEncoding ?? 'base64url')
      : null,
  });
  return {
    platform,
    profileId: input.profileId,
    authorizationUrl,
    state,
    redirectUrl: input.redirectUrl ?? null,
    expiresAt: expiresAt.toISOString(),
  };
}

/** Takes the state once: a replay, an unknown state or another platform's state finds nothing. */
async function takeState(services: Services, platform: string, state: string | undefined): Promise<OAuthStateRow> {
  const [row] = state
    ? ((await services
        .db('oauthStates')
        .where({ state, platform })
        .whereNull('usedAt')
        .update({ usedAt: services.db.fn.now() })
        .returning('*')) as OAuthStateRow[])
    : [];
  if (!row) throw new OAuthStateInvalidError();
  return row;
}

/**
 * The platform's redirect after consent: the state taken once, the code exchanged, every account the grant
 * covers saved in one transaction (so a failure leaves no half-made account), `account.connected` per account.
 */
export async function completeConnection(
  services: Services,
  platform: string,
  query: Record<string, string | undefined>,
): Promise<{ outcome: Outcome; redirectUrl: string | null }> {
  const stored = await takeState(services, platform, query.state);
  const base = { platform, profileId: stored.profileId };
  const finish = (outcome: Outcome) => ({ outcome, redirectUrl: stored.redirectUrl });
  if (stored.expiresAt.getTime() < Date.now()) {
    return finish({
      ...base,
      status: 'expired',
      error: 'state_expired',
      errorDescription: 'The connection took longer than 30 minutes; start it again.',
    });
  }
  if (query.error) {
    const denied = query.error === 'access_denied';
    return finish({
      ...base,
      status: denied ? 'denied' : 'failed',
      error: denied ? 'access_denied' : 'platform_error',
      errorDescription: query.error_description ?? (denied ? 'The request was declined.' : query.error),
    });
  }
  const code = query.code ?? query.auth_code;
  if (!code)
    return finish({
      ...base,
      status: 'failed',
      error: 'token_exchange_failed',
      errorDescription: 'The platform sent no authorization code.',
    });
  const adapter = adapterFor(services, platform);
  const refused = (reason: string, error: PlatformError) => {
    services.logger.warn({ err: error, platform }, 'OAuth connection failed');
    return finish({ ...base, status: 'failed', error: reason, errorDescription: error.message });
  };
  const verifier = stored.codeVerifierCiphertext ? services.secrets.open(stored.codeVerifierCiphertext) : null;
  let grant: OAuthGrant;
  try {
    grant = await adapter.oauth.exchange(code, callbackUrl(services, platform), verifier);
  } catch (error) {
    if (error instanceof PlatformError) return refused('token_exchange_failed', error);
    throw error;
  }
  try {
    return finish({ ...base, ...(await connectGrant(services, adapter, stored, grant)) });
  } catch (error) {
    if (error instanceof AccountAlreadyConnectedError) {
      return finish({ ...base, status: 'failed', error: 'account_already_connected', errorDescription: error.detail });
    }
    if (error instanceof PlanLimitReachedError)
      return finish({ ...base, status: 'failed', error: 'plan_limit_reached', errorDescription: error.detail });
    if (error instanceof PlatformError)
      return refused(error.kind === 'permission_revoked' ? 'permission_missing' : 'platform_error', error);
    throw error;
  }
}

/**
 * Keeps a grant that covers many assets for the user's choice (1 hour), or saves every account it covers, acting for
 * the owner who started the connection, within its profile.
 */
async function connectGrant(
  services: Services,
  adapter: OAuthAdapter,
  stored: OAuthStateRow,
  grant: OAuthGrant,
): Promise<Omit<Outcome, 'platform' | 'profileId'>> {
  const { platform, ownerId, profileId } = stored;
  if (isSelectingFlow(adapter.oauth)) {
    const credentials = await adapter.oauth.pendingSelection(grant);
    const pending = await createPendingConnection(services.db, services.secrets, { ownerId, profileId, platform, credentials });
    return { status: 'pending_selection', pendingConnectionId: pending.id };
  }
  const granted = await adapter.oauth.accounts(grant, stored.include);
  const grantedAds = (await adapter.oauth.adAccounts?.(grant)) ?? [];
  if (granted.length === 0 && grantedAds.length === 0)
    return { status: 'failed', error: 'no_accounts_found', errorDescription: 'The grant covers no account to connect.' };
  const principal: Principal = { kind: 'oauthCallback', ownerId, profileId };
  const { rows, adRows } = await services.db.transaction(async (trx) => {
    const saved = [];
    for (const account of granted) {
      saved.push(
        (
          await saveConnectedAccount(
            services,
            principal,
            {
              profileId,
              platform: account.platform ?? platform,
              identity: account.identity,
              credentials: account.credentials,
            },
            trx,
          )
        ).row,
      );
    }
    const savedAds = [];
    for (const adAccount of grantedAds) {
      const granted = { ...adAccount, scopes: grant.scopes };
      savedAds.push(await saveConnectedAdAccount(services, principal, profileId, platform as AdAccountRow['platform'], granted, trx));
    }
    return { rows: saved, adRows: savedAds };
  });
  return {
    status: 'connected',
    // A grant of ad accounts only has no accounts to list.
    ...(rows.length > 0 || adRows.length === 0 ? { accountIds: rows.map((row) => row.id) } : {}),
    ...(adRows.length > 0 ? { adAccountIds: adRows.map((row) => row.id) } : {}),
  };
}

/** The caller's redirect URL with the outcome added to its query. */
export function outcomeLocation(redirectUrl: string, outcome: Outcome): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('status', outcome.status);
  url.searchParams.set('platform', outcome.platform);
  url.searchParams.set('profileId', outcome.profileId);
  if (outcome.accountIds) url.searchParams.set('accountIds', outcome.accountIds.join(','));
  if (outcome.adAccountIds) url.searchParams.set('adAccountIds', outcome.adAccountIds.join(','));
  if (outcome.pendingConnectionId) url.searchParams.set('pendingConnectionId', outcome.pendingConnectionId);
  if (outcome.error) url.searchParams.set('error', outcome.error);
  if (outcome.errorDescription) url.searchParams.set('errorDescription', outcome.errorDescription);
  return url.toString();
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The page the browser lands on when the connection asked for no `redirectUrl`: what happened, and for a grant
 * that waits for a choice, the pending connection's id and the call that lists what it can connect.
 */
export function outcomePage(outcome: Outcome): string {
  const title = outcome.status === 'connected' ? 'Connected' : outcome.status === 'pending_selection' ? 'Almost there' : 'Not connected';
  const text =
    outcome.status === 'connected'
      ? `Your ${outcome.platform} account${(outcome.accountIds?.length ?? 0) + (outcome.adAccountIds?.length ?? 0) > 1 ? 's are' : ' is'} connected.`
      : outcome.status === 'pending_selection'
        ? `Access to ${outcome.platform} is granted; choose what to connect in the app.`
        : (outcome.errorDescription ?? 'The connection did not complete.');
  const pending = outcome.pendingConnectionId
    ? `<p>Pending connection: <code id="pendingConnectionId">${escape(outcome.pendingConnectionId)}</code>. List what it can connect with ` +
      `<code>GET /profiles/${escape(outcome.profileId)}/connect/${escape(outcome.platform)}/available?pendingConnectionId=${escape(outcome.pendingConnectionId)}</code> ` +
      `(the ad accounts: <code>…/adaccounts/available</code>), then connect them within the hour.</p>`
    : '';
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><p>${escape(text)} You can close this window.</p>${pending}</html>`;
}
