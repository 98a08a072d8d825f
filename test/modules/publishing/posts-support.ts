import { type DateTime } from 'luxon';
import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { until } from '../../support/wait.js';

/** Reads the post until `done` holds (or the time runs out, failing with the last state). */
export function waitForPost(app: TestApp, owner: TestOwner, postId: string, done: (post: any) => boolean, ms = 10_000): Promise<any> {
  return until(
    async () => {
      const response = await app.api.get(`/posts/${postId}`, { token: owner.key });
      expect(response.status).to.equal(200);
      return response.body;
    },
    { done, what: `the post ${postId} to settle`, timeoutMs: ms },
  );
}

export const settled = (post: { status: string }) => ['published', 'partial', 'failed'].includes(post.status);

/** Creates a post now and waits until every target settled. */
export async function postNow(app: TestApp, owner: TestOwner, body: Record<string, unknown>): Promise<any> {
  const created = await app.api.post('/posts', { token: owner.key, body: { publishNow: true, ...body } });
  expect(created.status, JSON.stringify(created.body)).to.equal(202);
  return waitForPost(app, owner, created.body.id, settled, 20_000);
}

/** The events of a post, in the order they were written. */
export async function eventsOf(app: TestApp, postId: string): Promise<Array<{ name: string; data: any }>> {
  const rows = await app.services.db('events').whereRaw("data->>'postId' = ?", [postId]).orderBy('id');
  return rows.map((row: { name: string; data: unknown }) => ({ name: row.name, data: row.data }));
}

/** The first hour after `from` at which the zone's UTC offset changes (a daylight-saving change). */
export function nextOffsetChange(zone: string, from: DateTime): DateTime {
  let at = from.setZone(zone);
  const offset = at.offset;
  while (at.offset === offset) at = at.plus({ hours: 1 });
  return at;
}
