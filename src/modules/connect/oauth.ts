import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { ApiError } from '../../lib/errors.js';
import { PlatformError } from '../../platforms/errors.js';
import { isOAuthAdapter, isSelectingFlow, type OAuthAdapter } from '../../platforms/capabilities/oauth.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { saveConnectedAccount } from '../accounts/accounts.js';
import { saveConnectedAdAccount } from '../accounts/ad-accounts.js';
import type { AdAccountRow } from '../accounts/models.js';
import { findProfile } from '../accounts/profiles.js';
import { createPendingConnection } from './pending.js';
import { platformToConnect } from './platform.js';

const STATE_TTL_MS = 30 * 60 * 1000;

interface StoredState {
  state: string;
  ownerId: string;
  profileId: string;
  platform: string;
  redirectUrl: string | null;
  codeVerifierCiphertext: string | null;
  include: string[];
  expiresAt: Date;
}

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
  if (!isOAuthAdapter(adapter)) {
    throw new ApiError(501, 'not_implemented', 'Not implemented', `Connecting ${platform} accounts is not built yet in this version.`);
  }
  return adapter;
}

export function callbackUrl(services: Services, platform: string): string {
  return `${services.config.publicUrl}/connect/${platform}/callback`;
}

/** A single-use state bound to owner, profile and platform, a PKCE verifier where used, and the consent URL. */
type OAuthPlatform = components['schemas']['OAuthPlatform'];

export async function startConnection(services: Services, principal: Principal, platform: OAuthPlatform, input: {
  profileId: string; redirectUrl?: string; include?: string[];
}): Promise<components['schemas']['ConnectAuthorization']> {
  const adapter = adapterFor(services, platform);
  await findProfile(services.db, principal, input.profileId);
  if (input.include && platform !== 'search_suite') {
    throw new ApiError(400, 'validation_failed', 'The request does not match the contract', '`include` is for search_suite only.',
      { errors: [{ path: 'query/include', message: 'is for search_suite only', code: 'include' }] });
  }
  const state = randomBytes(32).toString('base64url');
  const verifier = adapter.oauth.pkce ? randomBytes(48).toString('base64url') : null;
  const expiresAt = new Date(Date.now() + STATE_TTL_MS);
  const include = input.include ?? [];
  await services.db('oauthStates').insert({
    state, ownerId: principal.ownerId, profileId: input.profileId, platform, redirectUrl: input.redirectUrl ?? null,
    codeVerifierCiphertext: verifier ? services.secrets.seal(verifier) : null, include, expiresAt,
  });
  const authorizationUrl = adapter.oauth.authorizationUrl({
    state, redirectUri: callbackUrl(services, platform), include,
    codeChallenge: verifier ? createHash('sha256').update(verifier).digest(adapter.oauth.challengeEncoding ?? 'base64url') : null,
  });
  return { platform, profileId: input.profileId, authorizationUrl, state, redirectUrl: input.redirectUrl ?? null, expiresAt: expiresAt.toISOString() };
}

/** Takes the state once: a replay, an unknown state or another platform's state finds nothing. */
async function takeState(services: Services, platform: string, state: string | undefined): Promise<StoredState> {
  const [row] = state
    ? await services.db('oauthStates').where({ state, platform }).whereNull('usedAt').update({ usedAt: services.db.fn.now() }).returning('*') as StoredState[]
    : [];
  if (!row) {
    throw new ApiError(400, 'oauth_state_invalid', 'Invalid OAuth state', 'This connection link was used already or is unknown. Start the connection again.');
  }
  return row;
}

/**
 * The platform's redirect after consent: the state taken once, the code exchanged, every account the grant
 * covers saved in one transaction (so a failure leaves no half-made account), `account.connected` per account.
 */
export async function completeConnection(services: Services, platform: string, query: Record<string, string | undefined>): Promise<{ outcome: Outcome; redirectUrl: string | null }> {
  const stored = await takeState(services, platform, query.state);
  const base = { platform, profileId: stored.profileId };
  const finish = (outcome: Outcome) => ({ outcome, redirectUrl: stored.redirectUrl });
  if (stored.expiresAt.getTime() < Date.now()) {
    return finish({ ...base, status: 'expired', error: 'state_expired', errorDescription: 'The connection took longer than 30 minutes; start it again.' });
  }
  if (query.error) {
    const denied = query.error === 'access_denied';
    return finish({ ...base, status: denied ? 'denied' : 'failed', error: denied ? 'access_denied' : 'platform_error', errorDescription: query.error_description ?? (denied ? 'The request was declined.' : query.error) });
  }
  const code = query.code ?? query.auth_code;
  if (!code) return finish({ ...base, status: 'failed', error: 'token_exchange_failed', errorDescription: 'The platform sent no authorization code.' });
  const adapter = adapterFor(services, platform);
  const principal: Principal = { kind: 'session', ownerId: stored.ownerId, sessionId: 'oauth-callback' };
  try {
    const verifier = stored.codeVerifierCiphertext ? services.secrets.open(stored.codeVerifierCiphertext) : null;
    const grant = await adapter.oauth.exchange(code, callbackUrl(services, platform), verifier)
      .catch((error: unknown) => { throw Object.assign(error as Error, { stage: 'exchange' }); });
    if (isSelectingFlow(adapter.oauth)) {
      // Nothing is connected yet: the grant waits (1 hour) for the user to choose pages and ad accounts.
      const credentials = await adapter.oauth.pendingSelection(grant);
      const pending = await createPendingConnection(services.db, services.secrets, { ownerId: stored.ownerId, profileId: stored.profileId, platform, credentials });
      return finish({ ...base, status: 'pending_selection', pendingConnectionId: pending.id });
    }
    const granted = await adapter.oauth.accounts(grant, stored.include);
    const grantedAds = await adapter.oauth.adAccounts?.(grant) ?? [];
    if (granted.length === 0 && grantedAds.length === 0) return finish({ ...base, status: 'failed', error: 'no_accounts_found', errorDescription: 'The grant covers no account to connect.' });
    const { rows, adRows } = await services.db.transaction(async (trx) => {
      const saved = [];
      for (const account of granted) {
        saved.push((await saveConnectedAccount(services, principal, {
          profileId: stored.profileId, platform: account.platform ?? platform, identity: account.identity, credentials: account.credentials,
        }, trx)).row);
      }
      const savedAds = [];
      for (const adAccount of grantedAds) {
        savedAds.push(await saveConnectedAdAccount(services, principal, stored.profileId, platform as AdAccountRow['platform'], adAccount, trx));
      }
      return { rows: saved, adRows: savedAds };
    });
    return finish({
      ...base, status: 'connected',
      // A grant of ad accounts only has no accounts to list.
      ...(rows.length > 0 || adRows.length === 0 ? { accountIds: rows.map((row) => row.id) } : {}),
      ...(adRows.length > 0 ? { adAccountIds: adRows.map((row) => row.id) } : {}),
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'account_already_connected') {
      return finish({ ...base, status: 'failed', error: 'account_already_connected', errorDescription: error.detail });
    }
    if (error instanceof PlatformError) {
      const stage = (error as PlatformError & { stage?: string }).stage;
      const reason = stage === 'exchange' ? 'token_exchange_failed' : error.kind === 'permission_revoked' ? 'permission_missing' : 'platform_error';
      services.logger.warn({ err: error, platform }, 'OAuth connection failed');
      return finish({ ...base, status: 'failed', error: reason, errorDescription: error.message });
    }
    throw error;
  }
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

export function outcomePage(outcome: Outcome): string {
  const title = outcome.status === 'connected' ? 'Connected' : outcome.status === 'pending_selection' ? 'Almost there' : 'Not connected';
  const text = outcome.status === 'connected'
    ? `Your ${outcome.platform} account${(outcome.accountIds?.length ?? 0) + (outcome.adAccountIds?.length ?? 0) > 1 ? 's are' : ' is'} connected.`
    : outcome.status === 'pending_selection' ? `Access to ${outcome.platform} is granted; choose what to connect in the app.`
    : outcome.errorDescription ?? 'The connection did not complete.';
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><p>${escape(text)} You can close this window.</p></html>`;
}
