import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { consent } from '../connect/oauth-support.js';
import { sandboxPost, settled, waitForPost } from './posts-support.js';

export interface ThreadsPerson { accountId: string; userId: string }
export interface Posted {
  threads: Array<{ id: string; text?: string; media_type: string; media_url?: string; timestamp: string; replyControl: string; children: number }>;
  containers: Array<{ id: string; mediaType: string; status: string; isCarouselItem: boolean }>;
}

/** A new person on the sandbox, connected to the owner's profile through the OAuth dance (`scope`: what they grant, when not all). */
export async function connectThreads(app: TestApp, owner: TestOwner, scope?: string): Promise<ThreadsPerson> {
  const { userId } = await sandboxPost<{ userId: string }>(app, '/_sandbox/social_threads/users', { username: `poster.${Date.now() % 100_000}` });
  const started = await app.api.get(`/connect/social_threads?profileId=${owner.profileId}&redirectUrl=${encodeURIComponent('http://localhost:9/done')}`, { token: owner.key });
  expect(started.status).to.equal(200);
  const back = await consent(started.body.authorizationUrl, 'approve', scope === undefined ? {} : { scope });
  const done = await app.api.get(`${back.pathname}${back.search}`);
  const accountId = new URL(done.headers.get('location')!).searchParams.get('accountIds')!;
  expect(accountId).to.be.a('string');
  return { accountId, userId };
}

/** What the person has on the sandbox: their threads (newest first) and every container made for them. */
export async function posted(app: TestApp, userId: string): Promise<Posted> {
  const response = await fetch(`${app.services.sandboxUrl}/_sandbox/social_threads/posted?userId=${userId}`);
  return response.json() as Promise<Posted>;
}

export async function threadsFaults(app: TestApp, userId: string, faults: unknown[]): Promise<void> {
  await sandboxPost(app, '/_sandbox/social_threads/faults', { userId, faults });
}

/** Creates a post now and waits until every target settled. */
export async function postNow(app: TestApp, owner: TestOwner, body: Record<string, unknown>): Promise<any> {
  const created = await app.api.post('/posts', { token: owner.key, body: { publishNow: true, ...body } });
  expect(created.status, JSON.stringify(created.body)).to.equal(202);
  return waitForPost(app, owner, created.body.id, settled, 20_000);
}
