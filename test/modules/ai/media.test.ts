import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ffprobe from '@ffprobe-installer/ffprobe';
import { writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectThreads } from '../../support/sandbox/social-threads.js';
import { until } from '../../support/wait.js';
import { png, uploadMedia } from '../publishing/support.js';
import { AiProvider } from '../../support/sandbox/ai.js';
import { finished, started, testAiSettings } from './support.js';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';

const run = promisify(execFile);

async function media(app: TestApp, owner: TestOwner, id: string) {
  const answer = await app.api.get(`/media/${id}`, { token: owner.key });
  expect(answer.status).to.equal(200);
  return answer.body;
}

/** Publishes a post with the media at once and waits until every target is published. */
async function publishedPost(app: TestApp, owner: TestOwner, body: Record<string, unknown>) {
  const created = await app.api.post('/posts', { token: owner.key, body: { ...body, publishNow: true } });
  expect(created.status, JSON.stringify(created.body)).to.equal(202);
  return until(() => app.api.get(`/posts/${created.body.id}`, { token: owner.key }), {
    done: (read) => read.body.status === 'published',
    what: 'the post to be published',
    timeoutMs: 20_000,
  });
}

describeApi('AI media — images, speech and video stored as media, posted at once', { settings: testAiSettings() }, (t) => {
  const provider = new AiProvider(() => t.app);
  const { botchat, socialThreads } = t.sandbox;

  it('makes an image, stores it as media and posts it to a bot channel', async function () {
    // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
    this.timeout(60_000);
    const task = await finished(
      t.app,
      t.owner,
      await started(t.app, t.owner, 'image', { prompt: 'A cup of coffee', profileId: t.owner.profileId }),
    );
    expect(task.status, JSON.stringify(task.error)).to.equal('succeeded');
    expect(task.usage).to.include({ images: 1 });
    await until(() => t.app.api.get('/usage', { token: t.owner.key }), {
      done: (read) => read.body.usage.aiImages.used === 1 && read.body.usage.aiGenerations.used === 1,
      what: 'the image to be counted',
    });
    expect(task.result.url).to.contain(task.result.mediaId);
    expect(await media(t.app, t.owner, task.result.mediaId)).to.include({
      kind: 'image',
      mimeType: 'image/png',
      width: 1024,
      height: 1024,
    });
    const file = await fetch(task.result.url);
    expect(file.status).to.equal(200);
    const bot = await connectBot(t.app, t.owner);
    await botchat.newChannel('@coffee_news');
    await publishedPost(t.app, t.owner, {
      text: 'New today.',
      mediaIds: [task.result.mediaId],
      accountIds: [bot.accountId],
      platformOptions: { botchat: { chatIds: ['@coffee_news'] } },
    });
  });

  it('crops to an aspect ratio the model does not make, and starts from a reference image', async () => {
    const cropped = await finished(t.app, t.owner, await started(t.app, t.owner, 'image', { prompt: 'A tall glass', aspectRatio: '4:5' }));
    expect(await media(t.app, t.owner, cropped.result.mediaId)).to.include({ width: 1024, height: 1280 });
    const reference = await uploadMedia(t.app, t.owner, png(64, 64), 'reference.png', 'image/png');
    const edited = await finished(
      t.app,
      t.owner,
      await started(t.app, t.owner, 'image', { prompt: 'The same, warmer', imageMediaId: reference, profileId: t.owner.profileId }),
    );
    expect(edited.status, JSON.stringify(edited.error)).to.equal('succeeded');
    expect(await media(t.app, t.owner, edited.result.mediaId)).to.include({ kind: 'image', width: 1024, height: 1024 });
  });

  it('speaks a text as MP3 or WAV whose length follows the text, and counts its seconds', async function () {
    // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
    this.timeout(60_000);
    const short = await finished(
      t.app,
      t.owner,
      await started(t.app, t.owner, 'audio', { prompt: 'Our winter blend is back.', format: 'wav' }),
    );
    const long = await finished(
      t.app,
      t.owner,
      await started(t.app, t.owner, 'audio', { prompt: Array(40).fill('cocoa orange').join(' '), voice: 'verse', format: 'mp3' }),
    );
    expect(short.status, JSON.stringify(short.error)).to.equal('succeeded');
    expect(long.status, JSON.stringify(long.error)).to.equal('succeeded');
    const wav = await media(t.app, t.owner, short.result.mediaId);
    const mp3 = await media(t.app, t.owner, long.result.mediaId);
    expect(wav).to.include({ kind: 'audio', mimeType: 'audio/wav' });
    expect(mp3).to.include({ kind: 'audio', mimeType: 'audio/mpeg' });
    expect(mp3.durationMs).to.be.within(30_000, 34_000);
    expect(wav.durationMs).to.be.below(mp3.durationMs);
    expect(long.usage.seconds).to.be.within(30, 34);
    const usage = await until(() => t.app.api.get('/usage', { token: t.owner.key }), {
      done: (read) => read.body.usage.aiGenerations.used === 2,
      what: 'both generations to be counted',
    });
    expect(usage.body.usage.aiSeconds.used).to.equal(Math.ceil(short.usage.seconds) + Math.ceil(long.usage.seconds));
  });

  it('makes a video through a provider job that moves on over time, ending in a playable MP4 posted to Threads', async function () {
    // Provider jobs, ffmpeg and posting take seconds; on a loaded machine, more than mocha's default.
    this.timeout(60_000);
    await provider.configure({ videoStepMs: 300 });
    await socialThreads.configurePublishing({ videoProcessingMs: 200, quotaTotal: 250 });
    const taskId = await started(t.app, t.owner, 'video', { prompt: 'Coffee pouring', durationSeconds: 4, profileId: t.owner.profileId });
    const running = await until(() => t.app.api.get(`/ai/generate/${taskId}`, { token: t.owner.key }), {
      done: (read) => read.body.status !== 'queued',
      what: 'the task to start',
    });
    expect(['running', 'succeeded']).to.include(running.body.status);
    const task = await finished(t.app, t.owner, taskId, 60_000);
    expect(task.status, JSON.stringify(task.error)).to.equal('succeeded');
    expect(task.progress).to.equal(100);
    expect(task.usage.seconds).to.be.within(3.9, 4.1);
    const video = await media(t.app, t.owner, task.result.mediaId);
    expect(video).to.include({ kind: 'video', mimeType: 'video/mp4', width: 720, height: 1280, codec: 'h264' });
    // Played through: every frame decodes.
    const path = join(tmpdir(), `${taskId}.mp4`);
    await writeFile(path, Buffer.from(await (await fetch(task.result.url)).arrayBuffer()));
    const { stdout } = await run(ffprobe.path, [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=nb_read_frames',
      '-of',
      'csv=p=0',
      path,
    ]);
    await rm(path, { force: true });
    expect(Number(stdout.trim())).to.equal(96);
    const person = await connectThreads(t.app, t.owner);
    await publishedPost(t.app, t.owner, { text: 'Pouring.', mediaIds: [task.result.mediaId], accountIds: [person.accountId] });
    expect((await provider.calls()).videos).to.equal(1);
  });
});
