import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { SANDBOX_AI_KEY } from '../../../src/sandbox/ai/catalogue.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { until } from '../../support/wait.js';

const client = (url: string) => new OpenAI({ baseURL: `${url}/ai/v1`, apiKey: SANDBOX_AI_KEY, maxRetries: 0 });

describe('the sandbox AI provider, through the official client', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'sandbox-ai-'));
  after(() => rmSync(stateDir, { recursive: true, force: true }));

  it('keeps its video jobs across a restart: a job started before it completes after it, and one key makes one job', async function () {
    // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
    this.timeout(60_000);
    const first = await startSandbox({ port: 0, stateDir });
    const job = await client(first.url).videos.create(
      { model: 'sandbox-video', prompt: 'Restart me', seconds: '4', size: '720x1280' },
      { headers: { 'Idempotency-Key': 'task-1' } },
    );
    expect(job).to.include({ object: 'video', status: 'queued', seconds: '4', size: '720x1280' });
    const again = await client(first.url).videos.create(
      { model: 'sandbox-video', prompt: 'Restart me', seconds: '4', size: '720x1280' },
      { headers: { 'Idempotency-Key': 'task-1' } },
    );
    expect(again.id).to.equal(job.id);
    await first.close();

    const second = await startSandbox({ port: 0, stateDir });
    try {
      const done = await until(() => client(second.url).videos.retrieve(job.id), {
        done: (read) => read.status === 'completed',
        what: 'the job to complete',
        timeoutMs: 30_000,
      });
      expect(done.progress).to.equal(100);
      const content = await client(second.url).videos.downloadContent(job.id);
      const bytes = Buffer.from(await content.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('latin1')).to.equal('ftyp');
    } finally {
      await second.close();
    }
  });

  it('refuses an unknown key and an unknown model as the real API does', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const wrongKey = new OpenAI({ baseURL: `${sandbox.url}/ai/v1`, apiKey: 'nope', maxRetries: 0 });
      const refused = await wrongKey.models.list().catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(OpenAI.AuthenticationError);
      const unknown = await client(sandbox.url)
        .chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'hi' }] })
        .catch((error: unknown) => error);
      expect(unknown).to.be.instanceOf(OpenAI.NotFoundError);
      expect((unknown as InstanceType<typeof OpenAI.NotFoundError>).code).to.equal('model_not_found');
      const models = [];
      for await (const model of client(sandbox.url).models.list()) models.push(model.id);
      expect(models).to.deep.equal(['sandbox-copy', 'sandbox-image', 'sandbox-video', 'sandbox-speech']);
    } finally {
      await sandbox.close();
    }
  });
});
