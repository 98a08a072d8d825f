import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import type { MediaSettings } from '../../../src/modules/media/settings.js';
import { classify, loadS3Sdk, S3Storage } from '../../../src/modules/media/s3-storage.js';
import { storageFor, storageKeyFor } from '../../../src/modules/media/storage.js';
import { startTestApp } from '../../support/app.js';
import { describeApi } from '../../support/harness.js';
import { S3_TEST_CREDENTIALS, TestS3Server } from '../../support/s3.js';
import { bmp, download, png, upload } from '../publishing/support.js';

const MIB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The settings an operator writes, read by loadConfig as at start-up. */
function s3Env(s3: TestS3Server, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    MEDIA_STORAGE: 's3',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: '/tenant-a/media/',
    S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    ...extra,
  };
}

let s3: TestS3Server;
let media: MediaSettings;
/** The store starts first: the service checks its bucket and credentials when it starts. */
async function withStore() {
  s3 = await TestS3Server.start();
  media = loadConfig(s3Env(s3)).media;
  return { media };
}

describeApi('media on S3-compatible object storage (MEDIA_STORAGE=s3)', { settings: withStore }, (t) => {
  const objectKey = (mediaId: string) => `tenant-a/media/${storageKeyFor(mediaId)}`;
  const dataDir = () => t.app.services.config.dataDir;
  after(async () => {
    await s3?.close();
  });

  describe('settings', () => {
    it('reads the S3_* variables: prefix without its slashes, path style, credentials', () => {
      expect(media.storage).to.equal('s3');
      expect(media.s3).to.deep.equal({
        bucket: 'media',
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        prefix: 'tenant-a/media',
        credentials: S3_TEST_CREDENTIALS,
      });
      // No keys: the SDK's default chain; S3_* variables are ignored with local storage.
      expect(loadConfig(s3Env(s3, { S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' })).media.s3?.credentials).to.equal(undefined);
      expect(loadConfig({ S3_BUCKET: 'media' }).media).to.include({ storage: 'local', s3: undefined });
    });

    it('refuses to start without a bucket, and with settings that cannot work, naming the variable', () => {
      expect(() => loadConfig({ MEDIA_STORAGE: 's3', S3_REGION: 'eu-west-1' })).to.throw(/^MEDIA_STORAGE=s3 needs S3_BUCKET/);
      expect(() => loadConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'media' })).to.throw(/needs S3_REGION/);
      expect(() => loadConfig(s3Env(s3, { S3_SECRET_ACCESS_KEY: '' }))).to.throw(/^S3_SECRET_ACCESS_KEY must be set with S3_ACCESS_KEY_ID/);
      expect(() => loadConfig(s3Env(s3, { S3_ENDPOINT: 'minio:9000' }))).to.throw(/^S3_ENDPOINT must be an http\(s\) URL/);
      expect(() => loadConfig(s3Env(s3, { S3_PREFIX: 'a/../b' }))).to.throw(/^S3_PREFIX must be/);
      expect(() => loadConfig(s3Env(s3, { S3_FORCE_PATH_STYLE: 'yes' }))).to.throw(/^S3_FORCE_PATH_STYLE must be true or false/);
      expect(() => loadConfig({ MEDIA_STORAGE: 'gcs' })).to.throw(/^MEDIA_STORAGE must be local or s3, got "gcs"/);
    });

    it('refuses to start on a bucket that does not exist, or with credentials the store refuses', async () => {
      let refused: unknown;
      await startTestApp({ media: { ...media, s3: { ...media.s3!, bucket: 'no-such-bucket' } } }).catch((error) => {
        refused = error;
      });
      expect(String(refused)).to.match(/The S3 bucket "no-such-bucket" \(S3_BUCKET\) does not exist at http:\/\/127\.0\.0\.1:\d+/);
      refused = undefined;
      const stranger = { accessKeyId: 'STRANGER', secretAccessKey: 'not-the-secret' };
      await startTestApp({ media: { ...media, s3: { ...media.s3!, credentials: stranger } } }).catch((error) => {
        refused = error;
      });
      expect(String(refused)).to.match(/The store at http:\/\/127\.0\.0\.1:\d+ refuses the S3 credentials/);
    });
  });

  describe('through the service', () => {
    it('uploads a PNG into the bucket under its key, leaving no file on disk', async () => {
      const bytes = png(8, 6);
      const response = await upload(
        t.app,
        t.owner.key,
        { bytes, filename: 'swatch.png', type: 'image/png' },
        { profileId: t.owner.profileId },
      );
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({
        kind: 'image',
        mimeType: 'image/png',
        size: bytes.length,
        width: 8,
        height: 6,
        sha256: sha256(bytes),
      });
      const id = response.body.id as string;
      expect(await s3.keys('tenant-a/')).to.include(objectKey(id));
      expect((await s3.object(objectKey(id))).equals(bytes)).to.equal(true);
      // The temporary file was uploaded and removed; nothing went to the local media folder.
      expect(readdirSync(join(dataDir(), 'media', 'tmp'))).to.deep.equal([]);
      expect(existsSync(join(dataDir(), 'media', 'files'))).to.equal(false);
    });

    it('serves the file from the bucket whole and by range, with the same headers as from disk', async () => {
      const bytes = png(40, 30, () => [...randomBytes(3)] as [number, number, number]);
      const created = await upload(t.app, t.owner.key, { bytes, filename: 'noise.png' });
      expect(created.status, created.text).to.equal(201);
      const url = created.body.url as string;
      const whole = await download(t.app, url);
      expect(whole.status).to.equal(200);
      expect(whole.bytes.equals(bytes)).to.equal(true);
      expect(whole.headers.get('content-type')).to.equal('image/png');
      expect(whole.headers.get('content-length')).to.equal(String(bytes.length));
      expect(whole.headers.get('etag')).to.equal(`"${sha256(bytes)}"`);
      const part = await download(t.app, url, { Range: 'bytes=10-19' });
      expect(part.status).to.equal(206);
      expect(part.headers.get('content-range')).to.equal(`bytes 10-19/${bytes.length}`);
      expect(part.bytes.equals(bytes.subarray(10, 20))).to.equal(true);
      const tail = await download(t.app, url, { Range: 'bytes=-100' });
      expect(tail.status).to.equal(206);
      expect(tail.bytes.equals(bytes.subarray(bytes.length - 100))).to.equal(true);
      const past = await download(t.app, url, { Range: `bytes=${bytes.length}-` });
      expect(past.status).to.equal(416);
      expect((await download(t.app, url.replace(/token=.*/, `token=${'A'.repeat(43)}`))).status).to.equal(404);
    });

    it('leaves nothing in the bucket when an upload fails: a refused file (422), or a store that is down (503 storage_unavailable, also for downloads)', async () => {
      const before = await s3.keys();
      const refused = await upload(t.app, t.owner.key, { bytes: bmp(), filename: 'photo.bmp' });
      expect(refused.status).to.equal(422);
      await s3.stop();
      try {
        const failed = await upload(t.app, t.owner.key, { bytes: png(4, 4), filename: 'lost.png' });
        expect(failed.status).to.equal(503);
        expect(failed.body).to.include({ code: 'storage_unavailable' });
        expect(failed.headers.get('retry-after')).to.equal('30');
        // A stored file cannot be served while the store is down either.
        const stored = await t.app.services.db('media').first('id', 'token');
        const unavailable = await download(t.app, `${t.app.url}/media/${stored.id}/file?token=${stored.token}`);
        expect(unavailable.status).to.equal(503);
      } finally {
        await s3.restart();
      }
      expect(await s3.keys()).to.deep.equal(before);
      expect(readdirSync(join(dataDir(), 'media', 'tmp'))).to.deep.equal([]);
      // And the service uses the store again once it is back.
      const again = await upload(t.app, t.owner.key, { bytes: png(4, 4), filename: 'back.png' });
      expect(again.status, again.text).to.equal(201);
      expect(await s3.keys()).to.include(objectKey(again.body.id));
    });
  });

  describe('S3Storage', () => {
    it('stats, deletes (twice without complaint) and reports a missing object as null', async () => {
      const response = await upload(t.app, t.owner.key, { bytes: png(5, 5), filename: 'gone.png' });
      expect(response.status, response.text).to.equal(201);
      const storage = storageFor(t.app.services.config);
      expect(storage).to.be.instanceOf(S3Storage);
      const key = storageKeyFor(response.body.id);
      expect(await storage.stat(key)).to.deep.equal({ size: response.body.size });
      await storage.delete(key);
      expect(await s3.keys()).not.to.include(objectKey(response.body.id));
      expect(await storage.stat(key)).to.equal(null);
      await storage.delete(key);
      let error: unknown;
      await storage.read(key).catch((caught) => {
        error = caught;
      });
      expect(error).to.include({ name: 'MediaStorageError', failure: 'missing' });
    });

    it('uploads a file larger than one part as a multipart upload, intact', async () => {
      // Its own client, to see the calls made.
      const client = new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { ...S3_TEST_CREDENTIALS },
      });
      const calls: string[] = [];
      client.middlewareStack.add(
        (next, context) => (args) => {
          calls.push(context.commandName!);
          return next(args);
        },
        { step: 'initialize' },
      );
      const storage = new S3Storage(media.s3!, await loadS3Sdk(), client);
      const bytes = randomBytes(9 * MIB + 123);
      const temp = join(dataDir(), 'big.part');
      writeFileSync(temp, bytes);
      const key = storageKeyFor(`media_${randomBytes(8).toString('hex')}`);
      await storage.put(key, temp);
      expect(existsSync(temp)).to.equal(false);
      expect(calls).to.deep.equal([
        'CreateMultipartUploadCommand',
        'UploadPartCommand',
        'UploadPartCommand',
        'CompleteMultipartUploadCommand',
      ]);
      expect(await storage.stat(key)).to.deep.equal({ size: bytes.length });
      expect((await s3.object(`tenant-a/media/${key}`)).equals(bytes)).to.equal(true);
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.read(key, { start: 8 * MIB - 5, end: 8 * MIB + 4 })) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes.subarray(8 * MIB - 5, 8 * MIB + 5))).to.equal(true);
      await storage.delete(key);
      client.destroy();
    });

    it('classifies errors by the SDK name and status, never by message', () => {
      expect(classify({ name: 'NotFound', $metadata: { httpStatusCode: 404 } })).to.equal('missing');
      expect(classify({ name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } })).to.equal('missing');
      expect(classify({ name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } })).to.equal('no_bucket');
      expect(classify({ name: 'InvalidAccessKeyId', $metadata: { httpStatusCode: 403 } })).to.equal('bad_credentials');
      expect(classify({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } })).to.equal('denied');
      expect(classify(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).to.equal('unavailable');
    });
  });
});
