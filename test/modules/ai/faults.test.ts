import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { AiProvider } from '../../support/sandbox/ai.js';
import { finished, started, testAiSettings } from './support.js';

describeApi(
  'AI tasks — the provider failing as real providers fail',
  { settings: testAiSettings({ AI_DEADLINE_AUDIO_SECONDS: '3' }) },
  (t) => {
    const provider = new AiProvider(() => t.app);
    beforeEach(async () => {
      await provider.reset();
      await provider.configure({ videoStepMs: 200 });
    });

    const ms = (task: any) => new Date(task.completedAt).getTime() - new Date(task.createdAt).getTime();

    it('retries a rate limit no sooner than its retry-after, then succeeds', async () => {
      await provider.failNext('rate_limit', { endpoint: 'chat', retryAfterSeconds: 2 });
      const before = (await provider.calls()).chat;
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'copy', { prompt: 'Retry me, please.' }));
      expect(task.status).to.equal('succeeded');
      expect(ms(task)).to.be.at.least(2000);
      expect((await provider.calls()).chat - before).to.equal(2);
    });

    it('fails with provider_rate_limited once the retry schedule is spent', async () => {
      await provider.failNext('rate_limit', { endpoint: 'chat', times: 3 });
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'copy', { prompt: 'Always throttled.' }));
      expect(task.status).to.equal('failed');
      expect(task.error.code).to.equal('provider_rate_limited');
      expect(task.error.message).to.contain('tried 3 times');
    });

    it('retries a provider failure (500) and succeeds', async () => {
      await provider.failNext('server_error', { endpoint: 'images' });
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'image', { prompt: 'A second try' }));
      expect(task.status, JSON.stringify(task.error)).to.equal('succeeded');
    });

    it('fails with content_policy and the provider’s reason when the prompt is refused', async () => {
      await provider.failNext('content_policy', { endpoint: 'images' });
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'image', { prompt: 'Something refused' }));
      expect(task).to.include({ status: 'failed', result: null, usage: null });
      expect(task.error).to.deep.equal({
        code: 'content_policy',
        message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed.',
      });
    });

    it('fails with provider_error when the provider no longer knows the model', async () => {
      await provider.failNext('unknown_model', { endpoint: 'speech' });
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'audio', { prompt: 'Hello there' }));
      expect(task.error.code).to.equal('provider_error');
      expect(task.error.message).to.contain('The provider no longer offers sandbox-speech');
    });

    it('fails with timeout when the provider hangs past the kind’s deadline', async () => {
      await provider.failNext('hang', { endpoint: 'speech' });
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'audio', { prompt: 'Never answered' }));
      expect(task.error.code).to.equal('timeout');
      expect(ms(task)).to.be.within(2500, 6000);
    });

    it('fails a video whose provider job failed, with the provider’s message', async function () {
      // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
      this.timeout(60_000);
      await provider.failNext('video_failed', { endpoint: 'videos' });
      const task = await finished(t.app, t.owner, await started(t.app, t.owner, 'video', { prompt: 'Doomed', durationSeconds: 4 }), 30_000);
      expect(task.error).to.deep.equal({ code: 'provider_error', message: 'The video could not be generated; try another prompt.' });
    });

    it('fails a video whose download has expired', async function () {
      // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
      this.timeout(60_000);
      await provider.failNext('expired', { endpoint: 'content' });
      const task = await finished(
        t.app,
        t.owner,
        await started(t.app, t.owner, 'video', { prompt: 'Too late', durationSeconds: 4 }),
        30_000,
      );
      expect(task.error.code).to.equal('provider_error');
      expect(task.error.message).to.contain('The video content has expired.');
    });

    for (const [kind, endpoint, body] of [
      ['image', 'images', { prompt: 'Broken bytes' }],
      ['image', 'images', { prompt: 'Broken bytes, cropped', aspectRatio: '16:9' }],
      ['audio', 'speech', { prompt: 'Broken sound' }],
      ['video', 'content', { prompt: 'Broken video', durationSeconds: 4 }],
    ] as const) {
      it(`refuses corrupt ${kind} bytes through the media checks${'aspectRatio' in body ? ' (before cropping)' : ''}, storing nothing`, async function () {
        // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
        this.timeout(60_000);
        await provider.failNext('corrupt', { endpoint });
        const task = await finished(t.app, t.owner, await started(t.app, t.owner, kind, body), 30_000);
        expect(task.status).to.equal('failed');
        expect(task.error.code).to.equal('provider_error');
        expect(task.error.message).to.match(/^The provider's (result was refused|image could not be read)/);
        const stored = await t.app.services.db('media').where({ ownerId: t.owner.ownerId }).count({ n: '*' }).first();
        expect(Number(stored!.n)).to.equal(0);
      });
    }
  },
);
