// The rows of the connect area's tables, as Knex reads them (columns in camelCase).

/** A started OAuth connection as `oauth_states` keeps it: single use (`usedAt`), expiring. */
export interface OAuthStateRow {
  state: string;
  ownerId: string;
  profileId: string;
  platform: string;
  redirectUrl: string | null;
  codeVerifierCiphertext: string | null;
  include: string[];
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A grant waiting for the user's choice, as `pending_connections` keeps it (the credentials sealed). */
export interface PendingConnectionRow {
  id: string;
  ownerId: string;
  profileId: string;
  platform: string;
  credentialsCiphertext: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The driver's state of a session, as the API processes read it. */
export type SessionState = 'disconnected' | 'connecting' | 'qr_pending' | 'code_pending' | 'pairing' | 'open' | 'logged_out';

/** A qrchat account's linked-device session as `qrchat_sessions` keeps it. */
export interface SessionRow {
  accountId: string;
  state: SessionState;
  qr: string | null;
  qrExpiresAt: Date | null;
  pairingCode: string | null;
  phoneNumber: string | null;
  pairingExpiresAt: Date | null;
  generation: number;
  authCiphertext: string | null;
  heldBy: string | null;
  leaseExpiresAt: Date | null;
  updatedAt: Date;
}
