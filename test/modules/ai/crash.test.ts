import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { AiProvider } from '../../support/sandbox/ai.js';
import { until } from '../../support/wait.js';
import { finished, started, testAiSettings } from './support.js';

describeApi('AI tasks — a worker dying while a provider job runs', { settings: testAiSettings() }, (t) => {
  const provider = new AiProvider(() => t.app);
  let worker: CrashableWorker;
  before(async () => {
    worker = await CrashableWorker.standIn(t.app, 'ai');
  });
  after(() => worker.stop());

  it('resumes polling the same video job after the crash, never starting a second one', async function () {
    // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
    this.timeout(60_000);
    await provider.configure({ videoStepMs: 3000 });
    const taskId = await started(t.app, t.owner, 'video', { prompt: 'Survive a crash', durationSeconds: 4 });
    const row = await until(() => t.app.services.db('aiTasks').where({ id: taskId }).first(), {
      done: (task) => Boolean(task?.providerJobId),
      what: 'the provider job id to be stored',
      timeoutMs: 30_000,
    });
    const calls = await provider.calls();
    expect(calls.videoJobs.map((job) => job.id)).to.deep.equal([row.providerJobId]);
    expect(calls.videoJobs[0]!.status).to.not.equal('completed');

    await worker.crashAndReplace();

    const task = await finished(t.app, t.owner, taskId, 60_000);
    expect(task.status, JSON.stringify(task.error)).to.equal('succeeded');
    const after = await provider.calls();
    expect(after.videos, 'video jobs the provider made').to.equal(1);
    expect(after.videoJobs.map((job) => job.id)).to.deep.equal([row.providerJobId]);
    expect(task.result.mediaId).to.match(/^media_/);
  });
});
