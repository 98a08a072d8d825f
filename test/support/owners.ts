import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { ApiClient } from './client.js';

export interface TestOwner {
  ownerId: string;
  email: string;
  password: string;
  session: string;
  /** An unrestricted API key. */
  key: string;
  profileId: string;
}

/** Signs up a new owner through the API and gives it a profile and an unrestricted key. */
export async function newOwner(api: ApiClient): Promise<TestOwner> {
  const email = `owner-${randomBytes(5).toString('hex')}@example.com`;
  const password = 'a long enough password';
  const signUp = await api.post('/auth/signup', { body: { email, password } });
  expect(signUp.status).to.equal(201);
  const session = signUp.body.session.token as string;
  const key = await api.post('/api-keys', { token: session, body: { name: 'test key' } });
  expect(key.status).to.equal(201);
  const profile = await api.post('/profiles', { token: session, body: { name: 'Main profile' } });
  expect(profile.status).to.equal(201);
  return { ownerId: signUp.body.owner.id, email, password, session, key: key.body.key, profileId: profile.body.id };
}

/** An API key of the owner restricted to the given profiles. */
export async function restrictedKey(api: ApiClient, owner: TestOwner, profileIds: string[]): Promise<string> {
  const response = await api.post('/api-keys', { token: owner.session, body: { name: 'restricted', scope: { profiles: profileIds } } });
  expect(response.status).to.equal(201);
  return response.body.key as string;
}
