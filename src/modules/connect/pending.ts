import type { Knex } from 'knex';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Credentials } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { findProfile } from '../accounts/profiles.js';
import { PendingConnectionExpiredError } from './errors.js';
import type { PendingConnectionRow } from './rows.js';

/** Long enough to choose among many pages; short, because it holds a user token no account owns yet. */
const PENDING_TTL_MS = 60 * 60 * 1000;

export interface PendingConnection {
  id: string;
  profileId: string;
  credentials: Credentials;
  expiresAt: Date;
}

/** Keeps a grant (sealed) for the owner's profile until the user has chosen what to connect. */
export async function createPendingConnection(
  db: Knex,
  secrets: SecretBox,
  input: {
    ownerId: string;
    profileId: string;
    platform: string;
    credentials: Credentials;
  },
): Promise<PendingConnection> {
  const id = newId('pconn');
  const expiresAt = new Date(Date.now() + PENDING_TTL_MS);
  await db<PendingConnectionRow>('pendingConnections').insert({
    id,
    ownerId: input.ownerId,
    profileId: input.profileId,
    platform: input.platform,
    credentialsCiphertext: secrets.seal(JSON.stringify(input.credentials)),
    expiresAt,
  });
  return { id, profileId: input.profileId, credentials: input.credentials, expiresAt };
}

/**
 * The pending connection of the path's profile: 404/403 for the profile first, then 404 for a pending
 * connection that is unknown, of another profile or platform, and 422 once it expired. Without an id, the
 * profile's newest one of the platform (the one a person just granted in the browser).
 */
export async function openPendingConnection(
  services: Services,
  principal: Principal,
  profileId: string,
  id: string | undefined,
  platform: string,
): Promise<PendingConnection> {
  await findProfile(services.db, principal, profileId);
  const row = await services
    .db<PendingConnectionRow>('pendingConnections')
    .where({ ownerId: principal.ownerId, profileId, platform, ...(id ? { id } : {}) })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
  if (!row) throw new NotFoundError('pending connection');
  if (row.expiresAt.getTime() <= Date.now()) {
    throw new PendingConnectionExpiredError(row.expiresAt);
  }
  return {
    id: row.id,
    profileId: row.profileId,
    credentials: JSON.parse(services.secrets.open(row.credentialsCiphertext)) as Credentials,
    expiresAt: row.expiresAt,
  };
}
