import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { consent } from './oauth-support.js';

export const DONE = 'http://localhost:9/done';

/** The sandbox's people: each call is what a person (or the app's dashboard) does on the platform. */
export async function person<T = any>(app: TestApp, path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`${app.services.sandboxUrl}/_sandbox/social_network/${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  expect(response.status, `${path}: ${response.status}`).to.be.below(300);
  return response.json() as Promise<T>;
}

/** A new person with pages and an ad account, signed in to the browser that opens the login dialog. */
export async function newPerson(app: TestApp, input: { pages?: number; adAccounts?: number; declineScopes?: string[] } = {}) {
  const created = await person<{ userId: string; pageIds: string[]; adAccountIds: string[] }>(app, 'users', { name: 'Pat', ...input });
  await person(app, 'login', { userId: created.userId });
  return created;
}

/** The whole redirect dance, up to the callback's answer (302 to DONE with the outcome). */
export async function authorise(app: TestApp, owner: TestOwner, decision: 'approve' | 'deny' = 'approve', profileId = owner.profileId): Promise<URL> {
  const started = await app.api.get(`/connect/social_network?profileId=${profileId}&redirectUrl=${encodeURIComponent(DONE)}`, { token: owner.key });
  expect(started.status, JSON.stringify(started.body)).to.equal(200);
  const back = await consent(started.body.authorizationUrl, decision);
  expect(back.origin).to.equal(app.services.config.publicUrl);
  const callback = await app.api.get(`${back.pathname}${back.search}`);
  expect(callback.status, callback.text).to.equal(302);
  return new URL(callback.headers.get('location')!);
}

/** A pending connection of the owner's profile, from an approved dance. */
export async function pendingConnection(app: TestApp, owner: TestOwner, profileId = owner.profileId): Promise<string> {
  const outcome = await authorise(app, owner, 'approve', profileId);
  expect(outcome.searchParams.get('status'), outcome.toString()).to.equal('pending_selection');
  return outcome.searchParams.get('pendingConnectionId')!;
}

export async function connectPages(app: TestApp, owner: TestOwner, pendingConnectionId: string, platformPageIds: string[], profileId = owner.profileId) {
  return app.api.post(`/profiles/${profileId}/connect/social_network`, { token: owner.key, body: { pendingConnectionId, platformPageIds } });
}

export async function connectAdAccounts(app: TestApp, owner: TestOwner, pendingConnectionId: string, platformAdAccountIds: string[]) {
  return app.api.post(`/profiles/${owner.profileId}/connect/social_network/adaccounts`, { token: owner.key, body: { pendingConnectionId, platformAdAccountIds } });
}
