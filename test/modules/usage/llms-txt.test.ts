import { expect } from 'chai';
import { OPERATIONS } from '../../../generated/operations.js';
import { partlyBuiltOperations, unbuiltOperations } from '../../../src/modules/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';

/** An operation's line in /llms.txt: `- METHOD /path: …` up to the end of the line. */
function lineOf(listing: string, method: string, path: string): string {
  const line = listing.split('\n').find((candidate) => candidate.startsWith(`- ${method} ${path}: `));
  expect(line, `${method} ${path}`).to.be.a('string');
  return line!;
}

/** An operation's section in /llms-full.txt, from its heading to the next one. */
function sectionOf(listing: string, method: string, path: string): string {
  const start = listing.indexOf(`\n### ${method} ${path}: `);
  expect(start, `${method} ${path}`).to.be.above(-1);
  const end = listing.indexOf('\n##', start + 1);
  return listing.slice(start, end === -1 ? undefined : end);
}

describe('the listings for machines', () => {
  let app: TestApp;
  let llms: string;
  let full: string;
  let docs: string;
  before(async () => {
    app = await startTestApp();
    llms = (await app.api.get('/llms.txt')).text;
    full = (await app.api.get('/llms-full.txt')).text;
    docs = (await app.api.get('/docs')).text;
  });
  after(async () => {
    await app.close();
  });

  describe('getLlmsTxt — GET /llms.txt', () => {
    it('says how to get a key: sign up for a session, then make a key with it', () => {
      const signUp = llms.indexOf('`POST /auth/signup`');
      const makeKey = llms.indexOf('`POST /api-keys` with `Authorization: Bearer <session token>`');
      expect(signUp).to.be.above(-1);
      expect(makeKey).to.be.above(signUp);
      expect(llms.indexOf('## ')).to.be.above(makeKey);
    });

    it('states the conventions before the operations: errors, idempotency, paging, rate limits, signed events', () => {
      const conventions = llms.slice(0, llms.indexOf('\n## '));
      for (const term of ['application/problem+json', 'Idempotency-Key', 'nextCursor', 'Retry-After', 'webhook-signature']) {
        expect(conventions, term).to.include(term);
      }
    });

    it('marks every operation that is not built, and says what is missing from those built for some platforms', () => {
      const unbuilt = new Set<string>(unbuiltOperations());
      const partly = partlyBuiltOperations() as Record<string, string>;
      for (const { operationId, method, path } of OPERATIONS) {
        const line = lineOf(llms, method, path);
        if (unbuilt.has(operationId)) expect(line, operationId).to.include('Not built yet: answers 501 `not_implemented`.');
        else if (partly[operationId])
          expect(line, operationId).to.include(`Partly built: answers 501 \`not_implemented\` for ${partly[operationId]}.`);
        else expect(line, operationId).to.not.match(/built/i);
      }
      expect(lineOf(llms, 'POST', '/posts')).to.not.include('built');
    });

    it('links every operation to its place in /docs', () => {
      for (const { operationId, method, path } of OPERATIONS) {
        const link = new RegExp(`\\[Reference\\]\\(${app.url}/docs#/([a-z-]+)/${operationId.toLowerCase()}\\)$`).exec(
          lineOf(llms, method, path),
        );
        expect(link, operationId).to.not.equal(null);
        // The first part is Redoc's own address of the operation's tag: the page's sidebar links to it.
        expect(docs, operationId).to.include(`href="#/${link![1]}"`);
      }
      expect(lineOf(llms, 'POST', '/api-keys')).to.include(`(${app.url}/docs#/api-keys/createapikey)`);
    });

    it('points to the OpenAPI document, the reference and the full listing', () => {
      for (const address of ['/openapi.json', '/docs', '/llms-full.txt']) expect(llms).to.include(`${app.url}${address}`);
    });
  });

  describe('getLlmsFullTxt — GET /llms-full.txt', () => {
    it('is public plain text with a section for every operation', async () => {
      const response = await app.api.get('/llms-full.txt');
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/plain/);
      for (const { method, path } of OPERATIONS) sectionOf(full, method, path);
    });

    it("lists an operation's parameters with where they go", () => {
      const listPosts = sectionOf(full, 'GET', '/posts');
      for (const name of ['profileId', 'accountId', 'status', 'from', 'to', 'limit', 'cursor'])
        expect(listPosts).to.match(new RegExp(`- \`${name}\` \\(query, `));
      expect(sectionOf(full, 'GET', '/posts/{id}')).to.match(/- `id` \(path, string, required\)/);
      expect(sectionOf(full, 'POST', '/posts')).to.match(/- `Idempotency-Key` \(header, string, optional\)/);
    });

    it("lists the body's fields, nested ones by their path, with the rules between them", () => {
      const createPost = sectionOf(full, 'POST', '/posts');
      expect(createPost).to.include('Body (application/json, required):');
      expect(createPost).to.match(/- `accountIds` \(array of string, required\): The connected accounts/);
      expect(createPost).to.match(/- `text` \(string, optional\): The text\./);
      expect(createPost).to.match(/- `platformOptions\.short_video\.privacyLevel` \(/);
      // Each form with the member that picks it, required in it.
      expect(createPost).to.match(/- One of:\n {2}- Publish now:\n {4}- `publishNow` \(`true`, required\)/);
      expect(createPost).to.match(/\n {2}- Schedule:\n {4}- `scheduledAt` \(string, date-time, required\)/);
      expect(createPost).to.match(/\n {2}- Queue:\n {4}- `useQueue` \(`true`, required\)/);
    });

    it('lists an upload under its content type, and the import from a URL under its own', () => {
      const upload = sectionOf(full, 'POST', '/upload');
      expect(upload).to.match(/Body \(multipart\/form-data, required\):\n(- .*\n)*- `file` \(binary, required\)/);
      expect(upload).not.to.include('application/json, required');
      expect(sectionOf(full, 'POST', '/upload/url')).to.match(
        /Body \(application\/json, required\):\n(- .*\n)*- `url` \(string, uri, required\)/,
      );
    });

    it('says, as /llms.txt does, which operations are not built', () => {
      const unbuilt = new Set<string>(unbuiltOperations());
      for (const { operationId, method, path } of OPERATIONS) {
        const marked = sectionOf(full, method, path).includes('Not built yet: answers 501 `not_implemented`.');
        expect(marked, operationId).to.equal(unbuilt.has(operationId));
      }
    });
  });
});
