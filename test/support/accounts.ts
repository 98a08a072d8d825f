import type { TestApp } from './app.js';

export interface StoredCredentials {
  accessToken: string;
  refreshToken?: string;
  extra?: Record<string, any>;
}

/** An account's row as stored, with the credentials it keeps for the platform opened. */
export async function storedAccount(app: TestApp, accountId: string): Promise<{ row: any; credentials: StoredCredentials }> {
  const row = await app.services.db('accounts').where({ id: accountId }).first();
  return { row, credentials: JSON.parse(app.services.secrets.open(row.credentialsCiphertext)) as StoredCredentials };
}
