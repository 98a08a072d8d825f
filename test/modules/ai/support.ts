import { expect } from 'chai';
import { aiSettings } from '../../../src/modules/ai/settings.js';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { until } from '../../support/wait.js';

/** AI settings of a test app: retries a second apart, video jobs looked at five times a second, short leases. */
export function testAiSettings(env: Record<string, string> = {}) {
  return aiSettings({ AI_RETRY_SCHEDULE: '1,1', AI_VIDEO_POLL_MS: '200', AI_LEASE_SECONDS: '2', ...env });
}

export type Kind = 'copy' | 'image' | 'video' | 'audio';

/** Starts a task of `kind`; the answer is checked against the contract by the client. */
export function generate(app: TestApp, owner: TestOwner, kind: Kind, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.api.post(`/ai/generate-${kind}`, { token: owner.key, body, headers });
}

/** Starts a task that must be accepted; its id. */
export async function started(app: TestApp, owner: TestOwner, kind: Kind, body: Record<string, unknown>): Promise<string> {
  const answer = await generate(app, owner, kind, body);
  expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
  expect(answer.body).to.include({ kind, status: 'queued' });
  return answer.body.taskId as string;
}

export function readTask(app: TestApp, owner: TestOwner, taskId: string) {
  return app.api.get(`/ai/generate/${taskId}`, { token: owner.key });
}

/** The task once it has finished (succeeded, failed or cancelled). */
export async function finished(app: TestApp, owner: TestOwner, taskId: string, timeoutMs = 20_000): Promise<any> {
  const answer = await until(() => readTask(app, owner, taskId), {
    done: (read) => ['succeeded', 'failed', 'cancelled'].includes(read.body.status),
    what: `task ${taskId} to finish`,
    timeoutMs,
  });
  return answer.body;
}
