import { readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { mediaFolders } from '../../src/modules/media/storage.js';
import type { TestApp } from '../support/app.js';
import { describeApi } from '../support/harness.js';
import type { TestOwner } from '../support/owners.js';
import { BotchatPeople, connectBot } from '../support/sandbox/botchat.js';
import { checked, png } from '../modules/publishing/support.js';
import { until } from '../support/wait.js';

/** A cursor as the service wraps one, around contents it never made. */
const forged = (contents: string) => Buffer.from(contents).toString('base64url');

describeApi('requests the probes sent: each answered with a declared 4xx, never a 500 or silence', (t) => {
  let app: TestApp;
  let owner: TestOwner;
  beforeEach(async () => {
    app = t.app;
    owner = t.owner;
  });

  describe('the OpenAPI document', () => {
    it('names this instance (PUBLIC_URL) as its server', async () => {
      const response = await fetch(`${app.url}/openapi.json`);
      const document = (await response.json()) as { servers: Array<{ url: string }> };
      expect(document.servers.map((server) => server.url)).to.deep.equal([app.services.config.publicUrl]);
    });
  });

  describe('Content-Encoding', () => {
    const json = { 'Content-Type': 'application/json' };

    it('a body that is not what its Content-Encoding says is 400 naming the header, on public routes too', async () => {
      const garbage = 'certainly not gzip';
      const authenticated = await app.api.post('/profiles', {
        token: owner.key,
        rawBody: garbage,
        headers: { ...json, 'Content-Encoding': 'gzip' },
      });
      const open = await app.api.post('/auth/login', { rawBody: garbage, headers: { ...json, 'Content-Encoding': 'deflate' } });
      for (const response of [authenticated, open]) {
        expect(response.status).to.equal(400);
        expect(response.body.errors[0]).to.include({ path: 'header/content-encoding', code: 'content_encoding' });
      }
    });

    it('a coding the service does not decode is 400 naming the header', async () => {
      const response = await app.api.post('/profiles', {
        token: owner.key,
        rawBody: '{"name":"x"}',
        headers: { ...json, 'Content-Encoding': 'zstd' },
      });
      expect(response.status).to.equal(400);
      expect(response.body.errors[0]).to.include({ path: 'header/content-encoding', code: 'content_encoding' });
    });

    it('a gzip body is decoded, whatever the case of the coding', async () => {
      const response = await fetch(`${app.url}/profiles`, {
        method: 'POST',
        body: gzipSync(JSON.stringify({ name: 'zipped' })),
        headers: { ...json, 'Content-Encoding': 'GZip', Authorization: `Bearer ${owner.key}` },
      });
      expect(response.status).to.equal(201);
      expect(await response.json()).to.include({ name: 'zipped' });
    });
  });

  describe('a body an operation does not take', () => {
    it('is not read: not its size, not its encoding', async () => {
      const big = 'x'.repeat(2 * 1024 * 1024);
      const deleted = await app.api.delete('/hooks/hook_01jd3y9a2b4c6d8e0f2g4h6j8k', {
        token: owner.key,
        rawBody: big,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(deleted.status).to.equal(404);
      const pinged = await app.api.post('/hooks/hook_01jd3y9a2b4c6d8e0f2g4h6j8k/test', {
        token: owner.key,
        rawBody: 'not gzip',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      });
      expect(pinged.status).to.equal(404);
    });
  });

  describe('characters PostgreSQL cannot store', () => {
    it('a NUL character in a body member is 400 naming the member', async () => {
      const response = await app.api.post('/profiles', { token: owner.key, body: { name: 'Main\u0000profile' } });
      expect(response.status).to.equal(400);
      expect(response.body.errors).to.deep.include({
        path: 'body/name',
        message: 'contains a NUL character or a lone surrogate',
        code: 'characters',
      });
    });

    it('a lone surrogate is 400, in a member name as in a value (platformOptions)', async () => {
      const text = await app.api.post('/profiles', {
        token: owner.key,
        rawBody: '{"name":"a\\ud800b"}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(text.status).to.equal(400);
      expect(text.body.errors[0]).to.include({ path: 'body/name', code: 'characters' });
      const options = await app.api.post('/posts', {
        token: owner.key,
        rawBody:
          '{"text":"hi","accountIds":["acc_01jd3z8x9y0a1b2c3d4e5f6g7h"],"publishNow":true,"platformOptions":{"botchat":{"\\udc00":"x"}}}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(options.status).to.equal(400);
      expect(options.body.errors.map((error: { code: string }) => error.code)).to.include('characters');
    });

    it('an incoming platform webhook is still taken as the platform sent it (x-verbatim-body), lone surrogates and all: the message is kept, the cut emoji U+FFFD', async () => {
      const { token, accountId } = await connectBot(app, owner);
      const sent = await new BotchatPeople(() => app).sendMessage(token, 'cut off \ud83d', { id: 7, firstName: 'Ana' });
      expect(sent.webhookStatus).to.equal(200);
      const [conversation] = await until(
        async () => (await app.api.get(`/accounts/${accountId}/conversations`, { token: owner.key })).body.data,
        { done: (listed: Array<{ id: string }>) => listed.length === 1, what: 'the conversation of the message' },
      );
      const read = await app.api.get(`/accounts/${accountId}/conversations/${conversation!.id}`, { token: owner.key });
      expect(read.body.messages.data.map((message: { text: string }) => message.text)).to.deep.equal(['cut off \ufffd']);
    });

    it('a NUL character in a query parameter is 400 naming the parameter, on public routes too', async () => {
      const response = await app.api.get('/connect/social_network/callback?state=st%00te&code=c0de');
      expect(response.status).to.equal(400);
      expect(response.body.errors).to.deep.include({
        path: 'query/state',
        message: 'contains a NUL character or a lone surrogate',
        code: 'characters',
      });
    });
  });

  describe('path parameters', () => {
    it('a malformed percent-escape in a path parameter is 400 naming the parameter, not 500', async () => {
      const response = await app.api.get('/posts/post_%E0%A4%A', { token: owner.key });
      expect(response.status, response.text).to.equal(400);
      expect(response.body.errors).to.deep.equal([
        {
          path: 'path/id',
          code: 'encoding',
          message: 'is not valid percent-encoding: each % must start a UTF-8 byte written %XX (post_%E0%A4%A)',
        },
      ]);
    });
  });

  describe('cursors', () => {
    const cases: Array<[string, string]> = [
      ['/posts', forged('k1:["yesterday","post_01jd4a2b3c4d5e6f7g8h9j0k1m"]')],
      ['/posts', forged('k1:["2026-11-23T08:00:00.000Z","x\\u0000"]')],
      ['/queue', forged('k1:["2026-11-23T08:00:00.000Z","not an id"]')],
      [
        '/queue/slots',
        forged('k1:["prof_01jd3y6w7q5v8k0n2b4c6e8g1h",100000000000,"09:00","Europe/Berlin","slot_01jd4a2b3c4d5e6f7g8h9j0k1m"]'),
      ],
      ['/queue/slots', forged('k1:["prof_01jd3y6w7q5v8k0n2b4c6e8g1h",1,"25:99","Mars/Olympus","slot_01jd4a2b3c4d5e6f7g8h9j0k1m"]')],
      ['/profiles', forged('v1:prof_\u0000')],
      ['/posts', 'not-a-cursor'],
    ];
    for (const [path, cursor] of cases) {
      it(`GET ${path} with a cursor the service never made (${Buffer.from(cursor, 'base64url').toString().slice(0, 40)}) is 400 invalid_cursor`, async () => {
        const response = await app.api.get(`${path}?cursor=${cursor}`, { token: owner.key });
        expect(response.status, response.text).to.equal(400);
        expect(response.body.code).to.equal('invalid_cursor');
      });
    }

    it('a cursor the service made still turns the page', async () => {
      for (const name of ['one', 'two', 'three']) await app.api.post('/profiles', { token: owner.key, body: { name } });
      const first = await app.api.get('/profiles?limit=2', { token: owner.key });
      const next = await app.api.get(`/profiles?limit=2&cursor=${first.body.nextCursor}`, { token: owner.key });
      expect(next.status).to.equal(200);
      expect(next.body.data).to.have.length(2);
    });
  });

  describe('multipart uploads', () => {
    it('two file parts are answered 400 at once, and no temporary file stays behind', async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png(4, 4))]), 'a.png');
      form.append('file', new Blob([new Uint8Array(png(5, 5))]), 'b.png');
      const response = await checked(
        app,
        'POST',
        '/upload',
        await fetch(`${app.url}/upload`, {
          method: 'POST',
          body: form,
          headers: { Authorization: `Bearer ${owner.key}` },
          signal: AbortSignal.timeout(5000),
        }),
      );
      expect(response.status).to.equal(400);
      expect(response.body.errors[0]).to.include({ path: 'body', code: 'maxFiles' });
      expect(readdirSync(mediaFolders(app.services.config.dataDir).tmp)).to.deep.equal([]);
    });
  });

  describe('statuses the contract did not declare', () => {
    it('DELETE /api-keys/{id} with an id that is not a key id is a declared 400', async () => {
      const response = await app.api.delete('/api-keys/nope', { token: owner.session });
      expect(response.status).to.equal(400);
      expect(response.body.errors[0]).to.include({ path: 'path/id', code: 'pattern' });
    });

    it('POST /auth/logout with an Idempotency-Key used for another request is a declared 422', async () => {
      const headers = { 'Idempotency-Key': 'one-key-two-requests' };
      expect((await app.api.post('/profiles', { token: owner.session, body: { name: 'first' }, headers })).status).to.equal(201);
      const response = await app.api.post('/auth/logout', { token: owner.session, headers });
      expect(response.status).to.equal(422);
      expect(response.body.code).to.equal('idempotency_key_reused');
    });
  });
});
