import { expect } from 'chai';
import type { ApiTest } from '../../support/harness.js';
import { until } from '../../support/wait.js';

/** Creates an automation for the test's owner; answers its body, failing the test on anything but 201. */
export async function createAutomation(t: ApiTest, body: Record<string, unknown>): Promise<any> {
  const created = await t.app.api.post('/automations', {
    token: t.owner.key,
    body: { profileId: t.owner.profileId, name: 'Auto', ...body },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return created.body;
}

/** A `message_received` automation on the account that tags the conversation. */
export function tagging(accountId: string, tag: string, trigger: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    accountIds: [accountId],
    trigger: { type: 'message_received', ...trigger },
    actions: [{ type: 'add_tag', tag }],
    ...extra,
  };
}

/** The automation's runs, newest first. */
export async function runsOf(t: ApiTest, automationId: string): Promise<any[]> {
  const listed = await t.app.api.get(`/automations/${automationId}/runs?limit=100`, { token: t.owner.key });
  expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
  return listed.body.data;
}

/** Waits until the automation has `count` finished runs, and answers them, newest first. */
export function finishedRuns(t: ApiTest, automationId: string, count: number): Promise<any[]> {
  return until(() => runsOf(t, automationId), {
    done: (runs) => runs.length >= count && runs.every((run) => run.status !== 'running'),
    what: `${count} finished runs of ${automationId}`,
  });
}

/** The tags of the account's conversations, by the person's platform id. */
export async function tagsByPerson(t: ApiTest, accountId: string): Promise<Record<string, string[]>> {
  const listed = await t.app.api.get(`/accounts/${accountId}/conversations?limit=100`, { token: t.owner.key });
  return Object.fromEntries(
    listed.body.data.map((c: { platformConversationId: string; tags: string[] }) => [c.platformConversationId, c.tags]),
  );
}
