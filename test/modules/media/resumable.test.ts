import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { Upload, type DetailedError } from 'tus-js-client';
import { loadConfig } from '../../../src/config.js';
import { purgeExpired } from '../../../src/jobs/maintenance.js';
import { mediaFolders } from '../../../src/modules/media/storage.js';
import { describeApi } from '../../support/harness.js';
import { restrictedKey } from '../../support/owners.js';
import { until } from '../../support/wait.js';
import { VIDEO } from '../publishing/support.js';

const KIB = 1024;
const defaults = loadConfig({}).media;
// Small limits, so that "too large" is a few KiB here rather than gigabytes.
const media = { ...defaults, maxBytes: { image: 4 * KIB, gif: 4 * KIB, video: 64 * KIB, audio: 64 * KIB, document: 64 * KIB } };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Outcome {
  /** The upload's URL. */
  url: string;
  /** `Media-Id` of the PATCH that completed it, or the refusal. */
  mediaId?: string;
  error?: { status: number; body: any };
  /** The offsets the client reported, in order. */
  progress: number[];
}

describeApi('resumable uploads — tus at /upload/tus', { settings: { media } }, (t) => {
  const tusFiles = () => readdirSync(mediaFolders(t.app.services.config.dataDir).tus).filter((name) => name.startsWith('upl_'));

  /**
   * An upload with tus-js-client over HTTP, in chunks of `chunkSize`. `stopAfter`: the client is stopped after
   * that many chunks (an interrupted upload: it answers with what it had); `uploadUrl`: an upload to resume.
   */
  function tusUpload(
    bytes: Buffer,
    options: { token?: string; metadata?: Record<string, string>; chunkSize?: number; stopAfter?: number; uploadUrl?: string } = {},
  ): Promise<Outcome> {
    const progress: number[] = [];
    return new Promise((resolve) => {
      let chunks = 0;
      const upload: Upload = new Upload(bytes, {
        endpoint: `${t.app.url}/upload/tus`,
        uploadUrl: options.uploadUrl ?? null,
        headers: { Authorization: `Bearer ${options.token ?? t.owner.key}` },
        metadata: options.metadata ?? { filename: 'film.mp4', profileId: t.owner.profileId },
        chunkSize: options.chunkSize ?? Infinity,
        retryDelays: null,
        onProgress: (sent) => progress.push(sent),
        onChunkComplete: () => {
          chunks += 1;
          if (chunks === options.stopAfter) void upload.abort().then(() => resolve({ url: upload.url!, progress }));
        },
        onSuccess: ({ lastResponse }) => resolve({ url: upload.url!, mediaId: lastResponse.getHeader('Media-Id') ?? undefined, progress }),
        onError: (error) => {
          const response = (error as DetailedError).originalResponse;
          const text = response?.getBody() ?? '';
          resolve({
            url: upload.url ?? '',
            error: { status: response?.getStatus() ?? 0, body: text ? JSON.parse(text) : undefined },
            progress,
          });
        },
      });
      upload.start();
    });
  }

  const statusOf = async (url: string, token = t.owner.key) => {
    const read = await t.app.api.get(new URL(url).pathname, { token });
    expect(read.status, read.text).to.equal(200);
    return read.body;
  };
  const head = (url: string, token = t.owner.key) =>
    fetch(url, { method: 'HEAD', headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' } });

  it('uploads a video in chunks and stores it as media once complete, the progress readable all along', async () => {
    const done = await tusUpload(VIDEO, { chunkSize: KIB });
    expect(done.error, JSON.stringify(done.error)).to.equal(undefined);
    expect(done.url).to.match(new RegExp(`^${t.app.url}/upload/tus/upl_[0-9a-z]{26}$`));
    expect(done.progress.at(-1)).to.equal(VIDEO.length);
    const stored = await t.app.api.get(`/media/${done.mediaId}`, { token: t.owner.key });
    expect(stored.body).to.include({
      profileId: t.owner.profileId,
      kind: 'video',
      size: VIDEO.length,
      sha256: sha256(VIDEO),
      filename: 'film.mp4',
    });
    expect(stored.body.durationMs).to.be.greaterThan(0);
    expect(await statusOf(done.url)).to.include({ status: 'completed', mediaId: done.mediaId, offset: VIDEO.length, length: VIDEO.length });
    const answered = await head(done.url);
    expect(answered.status).to.equal(200);
    expect(answered.headers.get('upload-offset')).to.equal(String(VIDEO.length));
    // The bytes moved into the media: nothing of the upload is left in the tus store.
    expect(tusFiles().filter((name) => done.url.endsWith(name.split('.')[0]!))).to.deep.equal([]);
  });

  it('resumes an interrupted upload from the offset the server kept, and makes one media', async () => {
    const first = await tusUpload(VIDEO, { chunkSize: KIB, stopAfter: 2 });
    expect(first.mediaId).to.equal(undefined);
    const halfway = await statusOf(first.url);
    expect(halfway).to.include({ status: 'uploading', offset: 2 * KIB, length: VIDEO.length, mediaId: null });
    expect((await head(first.url)).headers.get('upload-offset')).to.equal(String(2 * KIB));
    const resumed = await tusUpload(VIDEO, { chunkSize: KIB, uploadUrl: first.url });
    expect(resumed.error, JSON.stringify(resumed.error)).to.equal(undefined);
    expect(resumed.url).to.equal(first.url);
    // Only the rest was sent: the client's first report is the offset it resumed from.
    expect(resumed.progress[0]).to.be.at.least(2 * KIB);
    const stored = await t.app.api.get(`/media/${resumed.mediaId}`, { token: t.owner.key });
    expect(stored.body.sha256).to.equal(sha256(VIDEO));
    const library = await t.app.api.get('/media', { token: t.owner.key });
    expect(library.body.data.map((item: { id: string }) => item.id)).to.deep.equal([resumed.mediaId]);
  });

  it('a profile-restricted key uploads only to its profiles, and cannot read or write another profile’s upload', async () => {
    const other = await t.app.api.post('/profiles', { token: t.owner.session, body: { name: 'Other' } });
    const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    const outside = await tusUpload(VIDEO, { token: key, metadata: { filename: 'x.mp4', profileId: other.body.id } });
    expect(outside.error?.status).to.equal(403);
    expect(outside.error?.body.code).to.equal('profile_out_of_scope');
    const unnamed = await tusUpload(VIDEO, { token: key, metadata: { filename: 'x.mp4' } });
    expect(unnamed.error?.status).to.equal(403);
    const theirs = await tusUpload(VIDEO, { chunkSize: KIB, stopAfter: 1, metadata: { filename: 'x.mp4', profileId: other.body.id } });
    expect((await head(theirs.url, key)).status).to.equal(403);
    expect((await t.app.api.get(new URL(theirs.url).pathname, { token: key })).status).to.equal(403);
    const appended = await fetch(theirs.url, {
      method: 'PATCH',
      headers: {
        Authorization: `Bearer ${key}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(KIB),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: VIDEO.subarray(KIB),
    });
    expect(appended.status).to.equal(403);
    expect((await statusOf(theirs.url)).offset).to.equal(KIB);
    const mine = await tusUpload(VIDEO, { token: key });
    expect(mine.error, JSON.stringify(mine.error)).to.equal(undefined);
    expect((await t.app.api.get(`/media/${mine.mediaId}`, { token: key })).body.profileId).to.equal(t.owner.profileId);
  });

  it('refuses a complete file the checks of POST /upload refuse: a clear 422, no media, the bytes removed', async () => {
    const noise = randomBytes(3 * KIB);
    const refused = await tusUpload(noise, { chunkSize: KIB });
    expect(refused.error?.status).to.equal(422);
    expect(refused.error?.body).to.include({ code: 'media_rejected' });
    expect(refused.error?.body.detail).to.match(/could not be recognised/);
    expect(refused.error?.body.errors[0].code).to.equal('type_not_allowed');
    const status = await statusOf(refused.url);
    expect(status).to.include({ status: 'failed', mediaId: null });
    expect(status.error).to.include({ code: 'media_rejected' });
    expect((await t.app.api.get('/media', { token: t.owner.key })).body.data).to.deep.equal([]);
    expect(tusFiles().filter((name) => refused.url.endsWith(name.split('.')[0]!))).to.deep.equal([]);
    // Larger than any kind may be: refused before a byte is sent.
    const huge = await fetch(`${t.app.url}/upload/tus`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.owner.key}`, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(65 * KIB) },
    });
    expect(huge.status).to.equal(413);
    expect(((await huge.json()) as { code: string }).code).to.equal('payload_too_large');
  });

  it('makes one media when the end is raced: a read of the progress while the last PATCH stores the file does not finish it again', async () => {
    const first = await tusUpload(VIDEO, { chunkSize: KIB, stopAfter: 3 });
    const held = await t.app.services.db.transaction();
    let finishing: Promise<Outcome> | undefined;
    try {
      // The last PATCH's finish stops at its insert of the media, its claim taken.
      await held.raw('LOCK TABLE media IN SHARE MODE');
      finishing = tusUpload(VIDEO, { chunkSize: KIB, uploadUrl: first.url });
      await until(() => statusOf(first.url), { done: (upload) => upload.status === 'processing', what: 'the finish claimed' });
      expect(await statusOf(first.url)).to.include({ status: 'processing', offset: VIDEO.length, mediaId: null });
      await held.commit();
    } finally {
      if (!held.isCompleted()) await held.rollback();
    }
    const done = await finishing!;
    expect(done.error, JSON.stringify(done.error)).to.equal(undefined);
    expect(await statusOf(first.url)).to.include({ status: 'completed', mediaId: done.mediaId });
    expect((await t.app.services.db('media').where({ ownerId: t.owner.ownerId })).map((row) => row.id)).to.deep.equal([done.mediaId]);
  });

  it('drops an unfinished upload with its bytes once it expires', async () => {
    const left = await tusUpload(VIDEO, { chunkSize: KIB, stopAfter: 1 });
    const id = new URL(left.url).pathname.split('/').pop()!;
    expect(tusFiles()).to.include(id);
    // Its time runs out (MEDIA_UPLOAD_EXPIRY_HOURS after creation), and the hourly purge runs.
    await t.app.services
      .db('mediaUploads')
      .where({ id })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    await purgeExpired(t.app.services);
    expect(tusFiles()).not.to.include(id);
    expect((await head(left.url)).status).to.equal(404);
  });
});
