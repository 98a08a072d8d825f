import type { Knex } from 'knex';
import { NotFoundError, ProfileOutOfScopeError } from '../../lib/errors.js';
import { ownedProfileIds } from '../accounts/api.js';

/**
 * Who is acting: a user session, an API key that may be restricted to some profiles, the owner through the
 * service itself (`ownerItself`), or the platform's redirect
 * after consent, which acts for the owner who started that connection and within its one profile (checked against
 * their key when they started it).
 */
export type Principal =
  | { kind: 'session'; ownerId: string; sessionId: string }
  | { kind: 'apiKey'; ownerId: string; keyId: string; profileIds: string[] | null }
  | { kind: 'oauthCallback'; ownerId: string; profileId: string }
  | { kind: 'owner'; ownerId: string };

/**
 * The owner acting through the service itself, on every profile of theirs: an automation they made, or a request
 * whose caller's reach was checked before the work was handed on.
 */
export function ownerItself(ownerId: string): Principal {
  return { kind: 'owner', ownerId };
}

/** The API key or session itself (or the connection a platform's redirect completes): what an Idempotency-Key record belongs to. */
export function principalId(principal: Principal): string {
  if (principal.kind === 'apiKey') return principal.keyId;
  if (principal.kind === 'owner') return `owner:${principal.ownerId}`;
  return principal.kind === 'session' ? principal.sessionId : `oauthCallback:${principal.profileId}`;
}

/** The profiles the caller is restricted to, or `null` for every profile of the owner. */
export function profileScope(principal: Principal): string[] | null {
  if (principal.kind === 'apiKey') return principal.profileIds;
  return principal.kind === 'oauthCallback' ? [principal.profileId] : null;
}

export function inProfileScope(principal: Principal, profileId: string): boolean {
  const scope = profileScope(principal);
  return scope === null || scope.includes(profileId);
}

export function assertProfileInScope(principal: Principal, profileId: string): void {
  if (!inProfileScope(principal, profileId)) throw new ProfileOutOfScopeError();
}

/**
 * The profiles a list may show: the one asked for (404 when it is not the owner's, as reading it is; 403 when it
 * is outside the caller's key), else those of a restricted key, else every profile of the owner (null).
 */
export async function listedProfiles(db: Knex, principal: Principal, profileId: string | undefined): Promise<string[] | null> {
  if (!profileId) return profileScope(principal);
  if (!(await ownedProfileIds(db, principal.ownerId, [profileId])).has(profileId)) throw new NotFoundError('profile');
  assertProfileInScope(principal, profileId);
  return [profileId];
}

/** A caller that may reach every profile of the owner (a session or an unrestricted key). */
export function assertUnrestricted(principal: Principal, action: string): void {
  if (profileScope(principal) !== null) {
    throw new ProfileOutOfScopeError(`A profile-restricted API key cannot ${action}; use a session or an unrestricted key.`);
  }
}
