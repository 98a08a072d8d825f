import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { describeApi } from '../../support/harness.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { animatedGif, bmp, checked, download, FileServer, fixture, pdf, png, upload, wav } from './support.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const KIB = 1024;

const defaults = loadConfig({}).media;
// Small limits, so that "too large" is a few KiB here rather than gigabytes.
const media = { ...defaults, maxBodyBytes: 1024 * KIB, maxBytes: { ...defaults.maxBytes, image: 50 * KIB, video: 512 * KIB } };

describeApi('media — /upload, /media/{id}, /media/{id}/file', { settings: { media } }, (t) => {
  let files: FileServer;
  before(async () => {
    files = await FileServer.start();
  });
  after(async () => {
    await files.close();
  });
  /** Where the service keeps files while it receives them. */
  const temporaryFiles = () => readdirSync(join(t.app.services.config.dataDir, 'media', 'tmp'));

  describe('uploadMedia — POST /upload (multipart)', () => {
    it('stores a PNG with its dimensions and digest, and serves it from its unguessable URL', async () => {
      const bytes = png(8, 6);
      const response = await upload(
        t.app,
        t.owner.key,
        { bytes, filename: 'swatch.png', type: 'image/png' },
        { profileId: t.owner.profileId },
      );
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({
        profileId: t.owner.profileId,
        kind: 'image',
        mimeType: 'image/png',
        size: bytes.length,
        width: 8,
        height: 6,
        durationMs: null,
        codec: null,
        frameRate: null,
        sha256: sha256(bytes),
        filename: 'swatch.png',
      });
      expect(response.body.url).to.match(new RegExp(`^${t.app.url}/media/${response.body.id}/file\\?token=[A-Za-z0-9_-]{43}$`));
      const file = await download(t.app, response.body.url);
      expect(file.status).to.equal(200);
      expect(file.bytes.equals(bytes)).to.equal(true);
      expect(file.headers.get('content-type')).to.equal('image/png');
      expect(file.headers.get('content-length')).to.equal(String(bytes.length));
      expect(file.headers.get('etag')).to.equal(`"${sha256(bytes)}"`);
      expect(file.headers.get('accept-ranges')).to.equal('bytes');
      // The temporary file was moved into storage, not left behind.
      expect(temporaryFiles()).to.deep.equal([]);
    });

    it('detects the type from the bytes: a JPEG named .png and declared image/png is a JPEG', async () => {
      const bytes = fixture('tiny.jpg');
      const response = await upload(t.app, t.owner.key, { bytes, filename: 'not-really.png', type: 'image/png' });
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({
        kind: 'image',
        mimeType: 'image/jpeg',
        width: 40,
        height: 30,
        profileId: null,
        filename: 'not-really.png',
      });
      expect((await download(t.app, response.body.url)).headers.get('content-type')).to.equal('image/jpeg');
    });

    it('reads an animated GIF: dimensions and duration', async () => {
      const response = await upload(t.app, t.owner.key, { bytes: animatedGif(3, 10), filename: 'blink.gif' });
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({ kind: 'gif', mimeType: 'image/gif', width: 1, height: 1, durationMs: 300, codec: null });
    });

    it('probes an MP4: dimensions, duration, codec and frame rate', async () => {
      const bytes = fixture('tiny.mp4');
      const response = await upload(t.app, t.owner.key, { bytes, filename: 'clip.mp4', type: 'video/mp4' });
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({
        kind: 'video',
        mimeType: 'video/mp4',
        width: 64,
        height: 48,
        durationMs: 1000,
        codec: 'h264',
        frameRate: 10,
      });
    });

    it('takes WAV audio and PDF documents', async () => {
      const audio = await upload(t.app, t.owner.key, { bytes: wav(500), filename: 'tone.bin' });
      expect(audio.status, audio.text).to.equal(201);
      expect(audio.body).to.include({ kind: 'audio', mimeType: 'audio/wav', durationMs: 500, codec: 'pcm_s16le', width: null });
      const document = await upload(t.app, t.owner.key, { bytes: pdf(), filename: 'menu.pdf' });
      expect(document.status, document.text).to.equal(201);
      expect(document.body).to.include({ kind: 'document', mimeType: 'application/pdf', durationMs: null });
    });

    it('refuses a type that is not allowed with 422 media_rejected type_not_allowed, naming the type', async () => {
      const image = await upload(t.app, t.owner.key, { bytes: bmp(), filename: 'photo.jpg', type: 'image/jpeg' });
      expect(image.status).to.equal(422);
      expect(image.body.code).to.equal('media_rejected');
      expect(image.body.errors[0]).to.include({ path: 'body/file', code: 'type_not_allowed' });
      expect(image.body.detail).to.match(/^The file is BMP \(image\/bmp\), which is not allowed; allowed are JPEG, PNG/);
      const text = await upload(t.app, t.owner.key, { bytes: Buffer.from('just some words, not a picture\n'), filename: 'photo.jpg' });
      expect(text.status).to.equal(422);
      expect(text.body.detail).to.match(/could not be recognised from its bytes/);
    });

    it('refuses a file that its type cannot be read as (422 unreadable), and an empty one', async () => {
      const broken = Buffer.concat([fixture('tiny.mp4').subarray(0, 40), randomBytes(200)]);
      const video = await upload(t.app, t.owner.key, { bytes: broken, filename: 'broken.mp4' });
      expect(video.status, video.text).to.equal(422);
      expect(video.body.errors[0].code).to.equal('unreadable');
      expect(video.body.detail).to.match(/^The file looks like MP4 but cannot be read/);
      const empty = await upload(t.app, t.owner.key, { bytes: Buffer.alloc(0), filename: 'empty.png' });
      expect(empty.status).to.equal(422);
      expect(empty.body).to.include({ detail: 'The file is empty.' });
      expect(empty.body.errors[0].code).to.equal('unreadable');
    });

    it('reads the whole file: a JPEG or an MP4 cut short after its header is refused (422 unreadable, naming the damage)', async () => {
      const jpeg = await upload(t.app, t.owner.key, { bytes: fixture('tiny.jpg').subarray(0, 500), filename: 'cut.jpg' });
      expect(jpeg.status, jpeg.text).to.equal(422);
      expect(jpeg.body.errors[0].code).to.equal('unreadable');
      expect(jpeg.body.detail).to.equal('The file looks like JPEG but cannot be read: premature end of JPEG image.');
      const video = await upload(t.app, t.owner.key, { bytes: fixture('tiny.mp4').subarray(0, 1500), filename: 'cut.mp4' });
      expect(video.status, video.text).to.equal(422);
      expect(video.body.errors[0].code).to.equal('unreadable');
      expect(video.body.detail).to.match(/^The file looks like MP4 but cannot be read: .*partial file\.$/);
      expect((await t.app.services.db('media').where({ ownerId: t.owner.ownerId })).map((row) => row.filename)).to.not.include.members([
        'cut.jpg',
        'cut.mp4',
      ]);
    });

    it("refuses a file over its kind's limit with 422 too_large, saying the size and the limit", async () => {
      const noisy = png(160, 120, () => [...randomBytes(3)] as [number, number, number]);
      expect(noisy.length).to.be.greaterThan(50 * KIB);
      const response = await upload(t.app, t.owner.key, { bytes: noisy, filename: 'noise.png' });
      expect(response.status).to.equal(422);
      expect(response.body.errors[0]).to.include({ code: 'too_large', path: 'body/file' });
      expect(response.body.detail).to.equal(`The image is ${Number((noisy.length / KIB).toFixed(1))} KiB; images may be at most 50 KiB.`);
    });

    it('answers 413 payload_too_large for a body over the upload limit, declared or streamed', async () => {
      const big = { bytes: randomBytes(1100 * KIB), filename: 'big.bin' };
      const declared = await upload(t.app, t.owner.key, big);
      expect(declared.status).to.equal(413);
      expect(declared.body.code).to.equal('payload_too_large');
      // No Content-Length: the limit is enforced on the bytes as they arrive.
      const boundary = 'x-boundary-x';
      const parts = [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        big.bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ];
      const stream = new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      const streamed = await fetch(`${t.app.url}/upload`, {
        method: 'POST',
        body: stream,
        duplex: 'half',
        headers: { Authorization: `Bearer ${t.owner.key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      } as RequestInit);
      const checkedStreamed = await checked(t.app, 'POST', '/upload', streamed);
      expect(checkedStreamed.status).to.equal(413);
      expect(temporaryFiles()).to.deep.equal([]);
    });

    it('answers 415 for a body that is not multipart (JSON included: a URL goes to /upload/url), and 400 for a multipart body without a file', async () => {
      const text = await t.app.api.post('/upload', { token: t.owner.key, rawBody: 'hello', headers: { 'Content-Type': 'text/plain' } });
      expect(text.status).to.equal(415);
      expect(text.body.code).to.equal('unsupported_media_type');
      const json = await t.app.api.post('/upload', { token: t.owner.key, body: { url: 'https://cdn.example.com/a.jpg' } });
      expect(json.status).to.equal(415);
      expect(json.body.detail).to.equal('Send the body as multipart/form-data.');
      const noFile = await upload(t.app, t.owner.key, undefined, { profileId: t.owner.profileId });
      expect(noFile.status).to.equal(400);
      expect(noFile.body.errors, JSON.stringify(noFile.body.errors)).to.deep.include({
        path: 'body/file',
        message: 'is required',
        code: 'required',
      });
      const unknown = await upload(t.app, t.owner.key, { bytes: png(2, 2), filename: 'a.png' }, { caption: 'hi' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors[0].path).to.equal('body/caption');
    });

    it('replays an upload sent again with the same Idempotency-Key, and refuses another file under it', async () => {
      const headers = { 'Idempotency-Key': `upload-${randomBytes(4).toString('hex')}` };
      const first = await upload(t.app, t.owner.key, { bytes: png(4, 4), filename: 'a.png' }, {}, headers);
      const again = await upload(t.app, t.owner.key, { bytes: png(4, 4), filename: 'a.png' }, {}, headers);
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.id).to.equal(first.body.id);
      const other = await upload(t.app, t.owner.key, { bytes: png(5, 5), filename: 'a.png' }, {}, headers);
      expect(other.status).to.equal(422);
      expect(other.body.code).to.equal('idempotency_key_reused');
    });

    it('keeps a profile-restricted key to its profiles', async () => {
      const restricted = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      const part = { bytes: png(2, 2), filename: 'a.png' };
      const withoutProfile = await upload(t.app, restricted, part);
      expect(withoutProfile.status).to.equal(403);
      expect(withoutProfile.body.code).to.equal('profile_out_of_scope');
      const inScope = await upload(t.app, restricted, part, { profileId: t.owner.profileId });
      expect(inScope.status).to.equal(201);
      const ownerWide = await upload(t.app, t.owner.key, part);
      expect((await t.app.api.get(`/media/${ownerWide.body.id}`, { token: restricted })).status).to.equal(403);
      const other = await newOwner(t.app.api);
      const unknown = await upload(t.app, t.owner.key, part, { profileId: other.profileId });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.code).to.equal('unknown_profile');
    });
  });

  describe('importMedia — POST /upload/url', () => {
    it('fetches over HTTPS and HTTP, following a redirect, named after the URL', async () => {
      const bytes = fixture('tiny.jpg');
      files.serve('/img/winter-blend.jpg', bytes, 'image/jpeg');
      files.redirect('/go', '/img/winter-blend.jpg');
      const response = await t.app.api.post('/upload/url', {
        token: t.owner.key,
        body: { url: `${files.httpsUrl}/img/winter-blend.jpg`, profileId: t.owner.profileId },
      });
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({
        kind: 'image',
        mimeType: 'image/jpeg',
        filename: 'winter-blend.jpg',
        sha256: sha256(bytes),
        width: 40,
      });
      expect((await download(t.app, response.body.url)).bytes.equals(bytes)).to.equal(true);
      const redirected = await t.app.api.post('/upload/url', {
        token: t.owner.key,
        body: { url: `${files.httpUrl}/go`, filename: 'kept.jpg' },
      });
      expect(redirected.status, redirected.text).to.equal(201);
      expect(redirected.body.filename).to.equal('kept.jpg');
    });

    it('applies the same checks as an upload, pointing at body/url', async () => {
      files.serve('/file.bmp', bmp());
      const response = await t.app.api.post('/upload/url', { token: t.owner.key, body: { url: `${files.httpsUrl}/file.bmp` } });
      expect(response.status).to.equal(422);
      expect(response.body.errors[0]).to.include({ path: 'body/url', code: 'type_not_allowed' });
    });

    it('refuses what cannot be fetched with 422 fetch_failed: an error answer, too many redirects, a non-public address', async () => {
      const missing = await t.app.api.post('/upload/url', { token: t.owner.key, body: { url: `${files.httpsUrl}/nothing.jpg` } });
      expect(missing.status).to.equal(422);
      expect(missing.body.errors[0]).to.include({ path: 'body/url', code: 'fetch_failed' });
      expect(missing.body.detail).to.equal('The URL could not be fetched: it answered HTTP 404, not 200 with the file.');

      for (let hop = 1; hop <= 4; hop += 1) files.redirect(`/loop${hop}`, `/loop${hop + 1}`);
      files.serve('/loop5', png(2, 2));
      const loop = await t.app.api.post('/upload/url', { token: t.owner.key, body: { url: `${files.httpsUrl}/loop1` } });
      expect(loop.status).to.equal(422);
      expect(loop.body.detail).to.equal('The URL could not be fetched: it redirected more than 3 times.');

      // Loopback over IPv6 is outside the ranges this test instance allows (127.0.0.0/8): refused before connecting.
      const before = files.requests.length;
      const local = await t.app.api.post('/upload/url', { token: t.owner.key, body: { url: 'http://[::1]:9/secret.png' } });
      expect(local.status).to.equal(422);
      expect(local.body.detail).to.match(/resolves to an address that is not public/);
      files.redirect('/to-local', 'http://[::1]:9/secret.png');
      const viaRedirect = await t.app.api.post('/upload/url', { token: t.owner.key, body: { url: `${files.httpsUrl}/to-local` } });
      expect(viaRedirect.status).to.equal(422);
      expect(viaRedirect.body.detail).to.match(/not public/);
      expect(files.requests.length).to.equal(before + 1);
    });
  });

  describe('getMedia — GET /media/{id}', () => {
    it("answers the stored media, and 404 for another owner's", async () => {
      const uploaded = await upload(t.app, t.owner.key, { bytes: png(3, 3), filename: 'x.png' });
      const read = await t.app.api.get(`/media/${uploaded.body.id}`, { token: t.owner.key });
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(uploaded.body);
      const other = await newOwner(t.app.api);
      const theirs = await t.app.api.get(`/media/${uploaded.body.id}`, { token: other.key });
      expect(theirs.status).to.equal(404);
      expect(theirs.body.code).to.equal('not_found');
    });
  });

  describe('downloadMediaFile — GET /media/{id}/file', () => {
    it('serves one range with 206, refuses a range past the end with 416, and hides the file behind its token', async () => {
      const bytes = fixture('tiny.mp4');
      const uploaded = await upload(t.app, t.owner.key, { bytes, filename: 'clip.mp4' });
      const url: string = uploaded.body.url;
      const part = await download(t.app, url, { Range: 'bytes=10-19' });
      expect(part.status).to.equal(206);
      expect(part.bytes.equals(bytes.subarray(10, 20))).to.equal(true);
      expect(part.headers.get('content-range')).to.equal(`bytes 10-19/${bytes.length}`);
      expect(part.headers.get('content-length')).to.equal('10');
      expect(part.headers.get('content-type')).to.equal('video/mp4');
      const tail = await download(t.app, url, { Range: 'bytes=-100' });
      expect(tail.bytes.equals(bytes.subarray(bytes.length - 100))).to.equal(true);
      const open = await download(t.app, url, { Range: `bytes=${bytes.length - 5}-` });
      expect(open.bytes.equals(bytes.subarray(bytes.length - 5))).to.equal(true);
      const several = await download(t.app, url, { Range: 'bytes=0-1,5-6' });
      expect(several.status).to.equal(200);
      expect(several.bytes.length).to.equal(bytes.length);
      const past = await download(t.app, url, { Range: `bytes=${bytes.length}-` });
      expect(past.status).to.equal(416);
      expect(past.body.code).to.equal('range_not_satisfiable');
      expect(past.headers.get('content-range')).to.equal(`bytes */${bytes.length}`);

      const wrongToken = await download(t.app, url.replace(/token=.*/, `token=${'A'.repeat(43)}`));
      expect(wrongToken.status).to.equal(404);
      expect(wrongToken.body.code).to.equal('not_found');
      const otherId = await download(t.app, url.replace(uploaded.body.id, 'media_01jd4b7c8d9e0f1g2h3j4k5m6n'));
      expect(otherId.status).to.equal(404);
      expect((await download(t.app, url.replace(/\?token=.*/, ''))).status).to.equal(400);
    });
  });
});
