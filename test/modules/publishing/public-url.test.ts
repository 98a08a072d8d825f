import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { startTestApp } from '../../support/app.js';
import { describeApi } from '../../support/harness.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { waitForPost } from './posts-support.js';
import { uploadPhoto } from './support.js';

/**
 * The operator configured the real Telegram (its URL is never called here) and left PUBLIC_URL on this machine's
 * address, as the test apps run. The bot was connected, and a post with a photo scheduled, while the sandbox stood
 * in for it: by an instance on the same database whose platforms are all the sandbox's, closed before the post is due.
 */
const operators = loadConfig({ BOTCHAT_API_URL: 'https://api.botchat.example' }).platforms;

describeApi(
  'publishing to a real platform while PUBLIC_URL is not reachable from the internet',
  { settings: { platforms: operators } },
  (t) => {
    let owner: TestOwner;
    let accountId: string;
    let scheduledId: string;
    before('connect a bot and schedule a post with a photo through an instance on the sandbox', async function () {
      // A second instance starts, and closes, within the hook.
      this.timeout(60_000);
      const { databaseUrl, encryptionKey } = t.app.services.config;
      const sandboxed = await startTestApp({ databaseUrl, encryptionKey });
      try {
        owner = await newOwner(sandboxed.api);
        ({ accountId } = await connectBot(sandboxed, owner));
        const scheduled = await sandboxed.api.post('/posts', {
          token: owner.key,
          body: {
            accountIds: [accountId],
            mediaIds: [await uploadPhoto(sandboxed, owner)],
            platformOptions: { botchat: { chatIds: ['4242'] } },
            scheduledAt: new Date(Date.now() + 4_000).toISOString(),
          },
        });
        expect(scheduled.status, JSON.stringify(scheduled.body)).to.equal(201);
        scheduledId = scheduled.body.id;
      } finally {
        await sandboxed.close();
      }
    });

    const refusal = (detail: string) => {
      expect(detail).to.include(`PUBLIC_URL (${t.app.services.config.publicUrl}) is not reachable from the internet`);
      expect(detail).to.match(/127\.0\.0\.1 is not a public address \(loopback\)/);
      expect(detail).to.include("botchat fetches the post's media there");
    };
    const post = (body: Record<string, unknown>) =>
      t.app.api.post('/posts', {
        token: owner.key,
        body: { accountIds: [accountId], platformOptions: { botchat: { chatIds: ['4242'] } }, ...body },
      });

    it('createPost — a post with media, now or scheduled, is 422 public_url_unreachable naming PUBLIC_URL and why; nothing is made', async () => {
      const mediaIds = [await uploadPhoto(t.app, owner)];
      const before = await t.app.services.db('posts').where({ ownerId: owner.ownerId }).count({ n: '*' }).first();
      for (const when of [{ publishNow: true }, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }]) {
        const answer = await post({ text: 'Fresh beans', mediaIds, ...when });
        expect(answer.status, JSON.stringify(when)).to.equal(422);
        expect(answer.body.code).to.equal('public_url_unreachable');
        refusal(answer.body.detail);
      }
      const after = await t.app.services.db('posts').where({ ownerId: owner.ownerId }).count({ n: '*' }).first();
      expect(after).to.deep.equal(before);
    });

    it('createPost — a post without media is taken: the platform fetches nothing from PUBLIC_URL', async () => {
      const answer = await post({ text: 'Fresh beans', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    });

    it('a post scheduled while the sandbox stood in fails public_url_unreachable when it is due, naming PUBLIC_URL', async () => {
      const failed = await waitForPost(t.app, owner, scheduledId, (read) => read.status === 'failed', 20_000);
      const [target] = failed.targets;
      expect(target.failure).to.include({ code: 'public_url_unreachable', action: 'contact_support', retryable: true });
      refusal(target.failure.message);
    });
  },
);
