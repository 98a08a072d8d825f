import { expect } from 'chai';
import type { Config } from '../../../src/lib/config.js';
import { loadConfig } from '../../../src/lib/config.js';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { consent } from '../connect/oauth-support.js';

/** Publishing settings for tests: short leases and retries a second apart (posts schedulable any time ahead, the default). */
export function publishingSettings(overrides: Partial<Config['publishing']> = {}): Partial<Config> {
  return { publishing: { ...loadConfig({}).publishing, leaseSeconds: 2, retryScheduleSeconds: [1, 1], ...overrides } };
}

export async function sandboxPost<T = any>(app: TestApp, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${app.services.sandboxUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return response.json() as Promise<T>;
}

/** A new bot at the sandbox, connected to the owner's profile: its account id and token. */
export async function connectBot(app: TestApp, owner: TestOwner): Promise<{ accountId: string; token: string }> {
  const { token } = await sandboxPost<{ token: string }>(app, '/_sandbox/botchat/bots', { firstName: 'Poster' });
  const connected = await app.api.post('/connect/botchat', { token: owner.key, body: { profileId: owner.profileId, botToken: token } });
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { accountId: connected.body.id, token };
}

/** The sandbox's two business locations, connected by the OAuth dance: their account ids. */
export async function connectLocations(app: TestApp, owner: TestOwner): Promise<string[]> {
  const started = await app.api.get(`/connect/search_suite?profileId=${owner.profileId}&redirectUrl=${encodeURIComponent('http://localhost:9/done')}`, { token: owner.key });
  expect(started.status).to.equal(200);
  const back = await consent(started.body.authorizationUrl, 'approve');
  const done = await app.api.get(`${back.pathname}${back.search}`);
  return new URL(done.headers.get('location')!).searchParams.get('accountIds')!.split(',');
}

export async function botMessages(app: TestApp, token: string): Promise<Array<{ chatId: number; messageId: number; text: string | null; caption: string | null; photo: string | null; at: number; deleted: boolean }>> {
  const response = await fetch(`${app.services.sandboxUrl}/_sandbox/botchat/sent?token=${encodeURIComponent(token)}`);
  return ((await response.json()) as { messages: any[] }).messages;
}

/**
 * A location's local posts as the platform lists them (newest first), read with the account's own token; only
 * those with `summary` when given (the sandbox's locations are shared by every test's owner).
 */
export async function localPosts(app: TestApp, accountId: string, summary?: string): Promise<Array<{ name: string; summary?: string }>> {
  const row = await app.services.db('accounts').where({ id: accountId }).first();
  const { accessToken } = JSON.parse(app.services.secrets.open(row.credentialsCiphertext));
  const response = await fetch(`${app.services.sandboxUrl}/search_suite/v4/${row.platformAccountId}/localPosts?pageSize=100`, { headers: { Authorization: `Bearer ${accessToken}` } });
  const posts = ((await response.json()) as { localPosts: any[] }).localPosts;
  return summary === undefined ? posts : posts.filter((post) => post.summary === summary);
}

/** Reads the post until `done` holds (or the time runs out, failing with the last state). */
export async function waitForPost(app: TestApp, owner: TestOwner, postId: string, done: (post: any) => boolean, ms = 10_000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const response = await app.api.get(`/posts/${postId}`, { token: owner.key });
    expect(response.status).to.equal(200);
    if (done(response.body)) return response.body;
    if (Date.now() > until) expect.fail(`the post did not settle in time: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const settled = (post: { status: string }) => ['published', 'partial', 'failed'].includes(post.status);

/** The events of a post, in the order they were written. */
export async function eventsOf(app: TestApp, postId: string): Promise<Array<{ name: string; data: any }>> {
  const rows = await app.services.db('events').whereRaw("data->>'postId' = ?", [postId]).orderBy('id');
  return rows.map((row: { name: string; data: unknown }) => ({ name: row.name, data: row.data }));
}

/** Waits until `check` holds (or fails the test after `ms`). */
export async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) expect.fail('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
