import type { TestApp } from './app.js';
import type { TestOwner } from './owners.js';
import { until } from './wait.js';

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

/** The account as the owner reads it, once its status is `status`: a worker marks it after it records an outcome. */
export function accountOnceIn(app: TestApp, owner: TestOwner, accountId: string, status: string): Promise<any> {
  return until(async () => (await app.api.get(`/accounts/${accountId}`, { token: owner.key })).body, {
    done: (account) => account.status === status,
    what: `the account ${accountId} to be ${status}`,
  });
}
