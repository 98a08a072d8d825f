import type { Knex } from 'knex';
import { NotFoundError, ProfileOutOfScopeError } from '../../lib/errors.js';

/** Who is calling: a user session, or an API key that may be restricted to some profiles. */
export type Principal =
  | { kind: 'session'; ownerId: string; sessionId: string }
  | { kind: 'apiKey'; ownerId: string; keyId: string; profileIds: string[] | null };

/** The API key or session itself: what an Idempotency-Key record belongs to. */
export function principalId(principal: Principal): string {
  return principal.kind === 'apiKey' ? principal.keyId : principal.sessionId;
}

/** The profiles the caller is restricted to, or `null` for every profile of the owner. */
export function profileScope(principal: Principal): string[] | null {
  return principal.kind === 'apiKey' ? principal.profileIds : null;
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
  if (!await db('profiles').where({ id: profileId, ownerId: principal.ownerId }).first('id')) throw new NotFoundError('profile');
  assertProfileInScope(principal, profileId);
  return [profileId];
}

/** A caller that may reach every profile of the owner (a session or an unrestricted key). */
export function assertUnrestricted(principal: Principal, action: string): void {
  if (profileScope(principal) !== null) {
    throw new ProfileOutOfScopeError(`A profile-restricted API key cannot ${action}; use a session or an unrestricted key.`);
  }
}
