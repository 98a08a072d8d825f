import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { restrictedKey } from '../../support/owners.js';
import { AiProvider } from '../../support/sandbox/ai.js';
import { uploadPhoto } from '../publishing/support.js';
import { until } from '../../support/wait.js';
import { finished, generate, readTask, started, testAiSettings } from './support.js';

describeApi('AI models and tasks', { settings: testAiSettings() }, (t) => {
  const provider = new AiProvider(() => t.app);

  it('lists the sandbox models, labelled as such, with the values each parameter takes', async () => {
    const models = await t.app.api.get('/ai/models', { token: t.owner.key });
    expect(models.status).to.equal(200);
    expect(models.body.data.map((model: any) => `${model.kind}:${model.id}`)).to.deep.equal([
      'copy:sandbox-copy',
      'image:sandbox-image',
      'video:sandbox-video',
      'audio:sandbox-speech',
    ]);
    for (const model of models.body.data) {
      expect(model).to.include({ provider: 'sandbox', sandbox: true, isDefault: true });
      expect(model.name).to.match(/^Sandbox .*not a real/);
    }
    const [copy, image, video, audio] = models.body.data;
    expect(copy.parameters).to.include({ maxPromptChars: 4000 });
    expect(copy.parameters.n).to.deep.equal({ max: 4 });
    expect(image.parameters.aspectRatio).to.deep.equal({
      values: ['1:1', '4:5', '9:16', '16:9', '1.91:1'],
      native: ['1:1'],
      cropped: ['4:5', '9:16', '16:9', '1.91:1'],
    });
    expect(video.parameters.aspectRatio).to.deep.equal({ values: ['9:16', '16:9'], native: ['9:16', '16:9'], cropped: [] });
    expect(video.parameters.durationSeconds).to.deep.equal({ values: [4, 8, 12] });
    expect(audio.parameters.voice.values).to.include('alloy');
    expect(audio.parameters.format).to.deep.equal({ values: ['mp3', 'wav'] });
    expect(models.body.kinds.every((kind: any) => kind.reason === null && kind.providers[0] === 'sandbox')).to.equal(true);
    const videos = await t.app.api.get('/ai/models?kind=video', { token: t.owner.key });
    expect(videos.body.data.map((model: any) => model.id)).to.deep.equal(['sandbox-video']);
  });

  it('refuses values a model does not take with 422, naming the member and the values it takes in the detail too', async () => {
    const square = await generate(t.app, t.owner, 'video', { prompt: 'A cup', aspectRatio: '1:1', durationSeconds: 5 });
    expect(square.status).to.equal(422);
    expect(square.body.code).to.equal('ai_model_unavailable');
    expect(square.body.errors).to.deep.include({
      path: 'body/aspectRatio',
      code: 'enum',
      message: '"1:1" is not taken by this model; it takes 9:16 or 16:9.',
    });
    expect(square.body.errors).to.deep.include({
      path: 'body/durationSeconds',
      code: 'enum',
      message: '5 is not taken by this model; it takes 4, 8 or 12.',
    });
    expect(square.body.detail).to.equal(
      'sandbox-video does not take this request. aspectRatio: "1:1" is not taken by this model; it takes 9:16 or 16:9. ' +
        'durationSeconds: 5 is not taken by this model; it takes 4, 8 or 12. See its parameters in GET /ai/models.',
    );
    const voice = await generate(t.app, t.owner, 'audio', { prompt: 'Hello', voice: 'nobody' });
    expect(voice.status).to.equal(422);
    expect(voice.body.errors[0]).to.include({ path: 'body/voice' });
    expect(voice.body.detail).to.match(/voice: "nobody" is not taken by this model; it takes alloy, .* or \w+\. /);
    const tooLong = await generate(t.app, t.owner, 'audio', { prompt: 'a'.repeat(4097) });
    expect(tooLong.body.errors[0]).to.include({ path: 'body/prompt', code: 'maxLength' });
    const variants = await generate(t.app, t.owner, 'copy', { prompt: 'Hello', n: 4, model: 'sandbox-image' });
    expect(variants.status).to.equal(422);
    expect(variants.body.detail).to.equal(
      'sandbox-image is an image model, not a copy model; the copy models here are sandbox-copy (GET /ai/models?kind=copy).',
    );
    const unknown = await generate(t.app, t.owner, 'copy', { prompt: 'Hello', model: 'gpt-9' });
    expect(unknown.body.detail).to.equal('No copy model named gpt-9; the copy models here are sandbox-copy (GET /ai/models?kind=copy).');
    expect(unknown.body.errors).to.deep.equal([{ path: 'body/model', code: 'enum', message: 'is "gpt-9", not one of: sandbox-copy' }]);
    const photo = await uploadPhoto(t.app, t.owner);
    const noVideoReference = await generate(t.app, t.owner, 'video', { prompt: 'A cup', imageMediaId: photo });
    expect(noVideoReference.body.errors[0]).to.include({ path: 'body/imageMediaId', code: 'not_supported' });
    const missingReference = await generate(t.app, t.owner, 'image', { prompt: 'A cup', imageMediaId: 'media_01jd4b7c8d9e0f1g2h3j4k5m6n' });
    expect(missingReference.status).to.equal(422);
    expect(missingReference.body.code).to.equal('media_not_found');
    const list = await t.app.api.get('/ai/generations', { token: t.owner.key });
    expect(list.body.data).to.deep.equal([]);
  });

  it('cancels a running video task, deletes the provider job, and keeps it cancelled', async () => {
    await provider.configure({ videoStepMs: 5000 });
    const taskId = await started(t.app, t.owner, 'video', { prompt: 'A slow pour', durationSeconds: 4 });
    await until(() => readTask(t.app, t.owner, taskId), { done: (read) => read.body.status === 'running', what: 'the task to run' });
    await until(() => provider.calls(), { done: (calls) => calls.videoJobs.length === 1, what: 'the provider job' });
    const cancelled = await t.app.api.post(`/ai/generate/${taskId}/cancel`, { token: t.owner.key });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.include({ status: 'cancelled', result: null });
    expect((await provider.calls()).videoJobs[0]!.deleted).to.equal(true);
    const again = await t.app.api.post(`/ai/generate/${taskId}/cancel`, { token: t.owner.key });
    expect(again.body.status).to.equal('cancelled');
    const waited = await t.app.api.get(`/ai/generate/${taskId}`, { token: t.owner.key, headers: { Prefer: 'wait=1' } });
    expect(waited.body.status).to.equal('cancelled');
    await provider.configure({ videoStepMs: 300 });
  });

  it('refuses to cancel a finished task with 409 ai_task_finished', async () => {
    const done = await generate(t.app, t.owner, 'copy', { prompt: 'Quick one.' }, { Prefer: 'wait=10' });
    expect(done.body.status).to.equal('succeeded');
    const refused = await t.app.api.post(`/ai/generate/${done.body.taskId}/cancel`, { token: t.owner.key });
    expect(refused.status).to.equal(409);
    expect(refused.body.code).to.equal('ai_task_finished');
  });

  it('answers 202 with the task as it is when Prefer: wait runs out first, and 404 for another owner', async () => {
    await provider.configure({ videoStepMs: 5000 });
    const answer = await generate(t.app, t.owner, 'video', { prompt: 'Still going', durationSeconds: 4 }, { Prefer: 'wait=1' });
    expect(answer.status).to.equal(202);
    expect(answer.headers.get('preference-applied')).to.equal('wait=1');
    expect(['queued', 'running']).to.include(answer.body.status);
    await t.app.api.post(`/ai/generate/${answer.body.taskId}/cancel`, { token: t.owner.key });
    await provider.configure({ videoStepMs: 300 });
    const other = await t.app.api.post('/auth/signup', {
      body: { email: `other-${Date.now()}@example.com`, password: 'a long enough password' },
    });
    const read = await t.app.api.get(`/ai/generate/${answer.body.taskId}`, { token: other.body.session.token });
    expect(read.status).to.equal(404);
  });

  it('keeps a restricted key to its profiles', async () => {
    const restricted = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    const unnamed = await t.app.api.post('/ai/generate-copy', { token: restricted, body: { prompt: 'Hi' } });
    expect(unnamed.status).to.equal(403);
    const ownerWide = await started(t.app, t.owner, 'copy', { prompt: 'Owner-wide copy' });
    expect((await t.app.api.get(`/ai/generate/${ownerWide}`, { token: restricted })).status).to.equal(403);
    const mine = await t.app.api.post('/ai/generate-copy', { token: restricted, body: { prompt: 'Hi', profileId: t.owner.profileId } });
    expect(mine.status).to.equal(202);
    const listed = await t.app.api.get('/ai/generations', { token: restricted });
    expect(listed.body.data.map((task: any) => task.taskId)).to.deep.equal([mine.body.taskId]);
  });

  itPagesByKeyset(t, 'listGenerations', async (count) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.unshift(await started(t.app, t.owner, i % 2 ? 'copy' : 'audio', { prompt: `Item ${i}` }));
    await Promise.all(ids.map((id) => finished(t.app, t.owner, id)));
    return {
      path: '/ai/generations',
      ids,
      filter: { query: 'kind=audio', ids: ids.filter((_, index) => (count - 1 - index) % 2 === 0) },
      page: (body) => ({ data: body.data.map((task: any) => ({ id: task.taskId })), nextCursor: body.nextCursor }),
    };
  });
});

describeApi(
  'AI models with a provider that cannot be reached',
  {
    settings: testAiSettings({
      AI_PROVIDERS: JSON.stringify([
        { name: 'local-ollama', baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: 'llama3.2', kind: 'copy' }] },
      ]),
    }),
  },
  (t) => {
    it('lists no model and says why for every kind', async () => {
      const models = await t.app.api.get('/ai/models', { token: t.owner.key });
      expect(models.body.data).to.deep.equal([]);
      const [copy, image] = models.body.kinds;
      expect(copy).to.include({ kind: 'copy' });
      expect(copy.reason).to.match(/^No copy model is available: provider local-ollama could not be reached/);
      expect(image.reason).to.equal('No provider of image models is configured on this instance.');
      const refused = await generate(t.app, t.owner, 'image', { prompt: 'A cup' });
      expect(refused.status).to.equal(422);
      expect(refused.body.detail).to.equal('No provider of image models is configured on this instance.');
    });
  },
);
