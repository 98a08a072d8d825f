import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { until } from '../../support/wait.js';
import { finished, generate, started, testAiSettings } from './support.js';

describeApi('AI copy — tasks on the sandbox provider', { settings: testAiSettings() }, (t) => {
  it('writes copy in the language asked for, with hashtags, and reports the tokens used', async () => {
    const taskId = await started(t.app, t.owner, 'copy', {
      prompt: 'Announce that our winter blend is back, with notes of cocoa and orange.',
      language: 'fr',
      includeHashtags: true,
      profileId: t.owner.profileId,
    });
    const task = await finished(t.app, t.owner, taskId);
    expect(task.status, JSON.stringify(task.error)).to.equal('succeeded');
    expect(task).to.include({ model: 'sandbox-copy', provider: 'sandbox', profileId: t.owner.profileId });
    expect(task.result.text).to.match(/^(Découvrez|Voici|Essayez|Bienvenue)/);
    expect(task.result.text).to.match(/#\p{L}+/u);
    expect(task.result.variants).to.deep.equal([task.result.text]);
    expect(task.usage.inputTokens).to.be.above(0);
    expect(task.usage.outputTokens).to.be.above(0);
    expect(task.completedAt).to.be.a('string');
    const usage = await until(() => t.app.api.get('/usage', { token: t.owner.key }), {
      done: (read) => read.body.usage.aiGenerations.used === 1,
      what: 'the generation to be counted',
    });
    expect(usage.body.usage.aiTokens.used).to.equal(task.usage.inputTokens + task.usage.outputTokens);
  });

  it('fits every variant into the platform limit, counted as the platform counts, and into maxLength', async () => {
    const prompt = 'Write a long story about mountains, rivers, forests, valleys, meadows, glaciers, lakes and summits.';
    const threads = await finished(
      t.app,
      t.owner,
      await started(t.app, t.owner, 'copy', { prompt, platform: 'botchat', maxLength: 40, n: 3 }),
    );
    expect(threads.result.variants).to.have.length(3);
    for (const variant of threads.result.variants) expect([...variant].length).to.be.at.most(40);
    expect(new Set(threads.result.variants).size).to.be.above(1);
  });

  it('answers the finished task at once with Prefer: wait', async () => {
    const answer = await generate(t.app, t.owner, 'copy', { prompt: 'Say hello to our new espresso bar.' }, { Prefer: 'wait=10' });
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('preference-applied')).to.equal('wait=10');
    expect(answer.body.status).to.equal('succeeded');
    expect(answer.body.result.text).to.be.a('string').that.is.not.empty;
  });

  it('starts one task for a request retried with the same Idempotency-Key', async () => {
    const body = { prompt: 'Thank our customers for a great year.' };
    const first = await generate(t.app, t.owner, 'copy', body, { 'Idempotency-Key': 'copy-once' });
    const again = await generate(t.app, t.owner, 'copy', body, { 'Idempotency-Key': 'copy-once' });
    expect(again.body.taskId).to.equal(first.body.taskId);
    const list = await t.app.api.get('/ai/generations?kind=copy', { token: t.owner.key });
    expect(list.body.data.map((task: any) => task.taskId)).to.deep.equal([first.body.taskId]);
  });
});
