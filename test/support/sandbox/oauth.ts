import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { ApiResponse } from '../client.js';
import type { TestOwner } from '../owners.js';

/** Where the caller's page is: the service sends the browser there with the outcome of a connection. */
export const DONE = 'http://localhost:9/done';

export interface StartOptions {
  profileId?: string;
  /** More of the query (`&include=…`). */
  query?: string;
}

/** GET /connect/<platform> for the owner's profile: the platform's authorization URL the browser is sent to. */
export async function startConnection(app: TestApp, owner: TestOwner, platform: string, options: StartOptions = {}): Promise<URL> {
  const query = `profileId=${options.profileId ?? owner.profileId}&redirectUrl=${encodeURIComponent(DONE)}${options.query ?? ''}`;
  const started = await app.api.get(`/connect/${platform}?${query}`, { token: owner.key });
  expect(started.status, JSON.stringify(started.body)).to.equal(200);
  return new URL(started.body.authorizationUrl);
}

/**
 * Plays the user's browser on the sandbox's consent page: reads the form, approves or declines it. `fields`
 * replace the form's own (another signed-in user, other ticked assets). Answers where the platform sends the
 * browser back to.
 */
export async function consent(
  authorizationUrl: URL | string,
  decision: 'approve' | 'deny',
  fields: Record<string, string> = {},
): Promise<URL> {
  const page = await fetch(authorizationUrl);
  expect(page.status).to.equal(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action, 'a consent form').to.be.a('string');
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(name!, value!.replace(/&quot;/g, '"'));
  }
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('decision', decision);
  const answer = await fetch(new URL(action!, authorizationUrl), { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).to.equal(302);
  return new URL(answer.headers.get('location')!);
}

/** The browser arriving back at our callback from the platform: the service's answer. */
export async function returnToService(app: TestApp, back: URL): Promise<ApiResponse> {
  expect(back.origin).to.equal(app.services.config.publicUrl);
  return app.api.get(`${back.pathname}${back.search}`);
}

export interface DanceOptions extends StartOptions {
  decision?: 'approve' | 'deny';
  /** Replacing the consent form's own (who is signed in, what is ticked). */
  fields?: Record<string, string>;
}

/** The whole redirect dance, up to the callback's answer: the outcome it sends the caller's page (at DONE). */
export async function authorise(app: TestApp, owner: TestOwner, platform: string, options: DanceOptions = {}): Promise<URL> {
  const authorizationUrl = await startConnection(app, owner, platform, options);
  const callback = await returnToService(app, await consent(authorizationUrl, options.decision ?? 'approve', options.fields));
  expect(callback.status, callback.text).to.equal(302);
  return new URL(callback.headers.get('location')!);
}

/** The accounts an approved dance connected. */
export function connectedAccountIds(outcome: URL): string[] {
  expect(outcome.searchParams.get('status'), outcome.toString()).to.equal('connected');
  return outcome.searchParams.get('accountIds')!.split(',');
}
