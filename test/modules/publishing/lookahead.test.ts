import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { until } from '../../support/wait.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';

/** The next whole second at least `ms` from now (the scheduler's wake-ups are per second). */
const secondsAhead = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);

/** Waits until a worker holds the post's target ahead of its due time: leased under a token, still scheduled. */
async function heldAhead(app: TestApp, postId: string): Promise<{ leaseToken: string | null; lockedUntil: Date; status: string }> {
  return until(
    async () =>
      (await app.services.db('postTargets').where({ postId }).first('leaseToken', 'lockedUntil', 'status')) as Awaited<
        ReturnType<typeof heldAhead>
      >,
    {
      done: (row) => row?.leaseToken != null && row.status === 'scheduled',
      what: 'a worker holding the target ahead of its due time',
      timeoutMs: 10_000,
    },
  );
}

/** Schedules a text post to the bot's chats at `at` through the API (201 expected); answers the post. */
async function schedule(app: TestApp, owner: TestOwner, bot: { accountId: string }, text: string, at: Date, chatIds = ['41']) {
  const created = await app.api.post('/posts', {
    token: owner.key,
    body: { text, accountIds: [bot.accountId], scheduledAt: at.toISOString(), platformOptions: { botchat: { chatIds } } },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return created.body;
}

describeApi('publishing — targets leased ahead of their due time', { settings: { publishing: { lookaheadSeconds: 10 } } }, (t) => {
  const { botchat } = t.sandbox;

  it('is never sent before its due time: held ahead, then published once, at or after scheduledAt', async () => {
    const bot = await connectBot(t.app, t.owner);
    const at = secondsAhead(4000);
    const posts = await Promise.all(['One.', 'Two.', 'Three.'].map((text) => schedule(t.app, t.owner, bot, text, at)));
    for (const post of posts) await heldAhead(t.app, post.id);
    for (const post of posts) expect((await waitForPost(t.app, t.owner, post.id, settled)).status).to.equal('published');
    const messages = await botchat.onPlatform(bot.token);
    expect(messages.map((m) => m.text).sort()).to.deep.equal(['One.', 'Three.', 'Two.']);
    for (const message of messages) expect(message.at, message.text ?? '').to.be.at.least(at.getTime());
    expect((await eventsOf(t.app, posts[0].id)).map((e) => e.name)).to.deep.equal(['post.scheduled', 'post.processing', 'post.published']);
  });

  it('edited while held ahead: the new text is sent, once, and post.processing shows the post as edited', async () => {
    const bot = await connectBot(t.app, t.owner);
    const post = await schedule(t.app, t.owner, bot, 'As first written.', secondsAhead(4000));
    await heldAhead(t.app, post.id);
    const edited = await t.app.api.patch(`/posts/${post.id}`, { token: t.owner.key, body: { text: 'As edited.' } });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    const published = await waitForPost(t.app, t.owner, post.id, settled);
    expect(published).to.include({ status: 'published', text: 'As edited.' });
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['As edited.']);
    const events = await eventsOf(t.app, post.id);
    expect(events.map((e) => e.name)).to.deep.equal(['post.scheduled', 'post.scheduled', 'post.processing', 'post.published']);
    expect(events[2]!.data.targets[0]).to.include({ status: 'processing', nextAttemptAt: null });
  });

  it('rescheduled later while held ahead: sent at its new time, not at the old one', async () => {
    const bot = await connectBot(t.app, t.owner);
    const post = await schedule(t.app, t.owner, bot, 'Later, please.', secondsAhead(3000));
    await heldAhead(t.app, post.id);
    const later = secondsAhead(6000);
    const moved = await t.app.api.patch(`/posts/${post.id}`, { token: t.owner.key, body: { scheduledAt: later.toISOString() } });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const published = await waitForPost(t.app, t.owner, post.id, settled, 15_000);
    expect(published).to.include({ status: 'published', scheduledAt: later.toISOString() });
    const messages = await botchat.onPlatform(bot.token);
    expect(messages).to.have.length(1);
    expect(messages[0]!.at).to.be.at.least(later.getTime());
  });

  it('deleted while held ahead: cancelled and never sent, while a post due at the same time is', async () => {
    const bot = await connectBot(t.app, t.owner);
    const at = secondsAhead(4000);
    const doomed = await schedule(t.app, t.owner, bot, 'Never sent.', at);
    const kept = await schedule(t.app, t.owner, bot, 'Sent on time.', at);
    await heldAhead(t.app, doomed.id);
    const deleted = await t.app.api.delete(`/posts/${doomed.id}`, { token: t.owner.key });
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expect(deleted.body).to.include({ status: 'cancelled' });
    expect((await waitForPost(t.app, t.owner, kept.id, settled)).status).to.equal('published');
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Sent on time.']);
    const cancelled = await t.app.api.get(`/posts/${doomed.id}`, { token: t.owner.key });
    expect(cancelled.body).to.include({ status: 'cancelled' });
    expect(cancelled.body.targets[0]).to.include({ status: 'cancelled', attempts: 0 });
    expect((await eventsOf(t.app, doomed.id)).map((e) => e.name)).to.deep.equal(['post.scheduled']);
  });
});

describeApi(
  'publishing — a worker that dies holding targets ahead of their due time',
  { settings: { publishing: { lookaheadSeconds: 10, leaseSeconds: 2 } } },
  (t) => {
    const { botchat } = t.sandbox;
    let worker: CrashableWorker;

    before(async () => {
      worker = await CrashableWorker.standIn(t.app, 'publishing');
    });
    after(async () => {
      await worker.stop();
    });

    it('another worker takes them once the lease runs out (after the due time) and sends each once', async () => {
      const bot = await connectBot(t.app, t.owner);
      const at = secondsAhead(3000);
      const post = await schedule(t.app, t.owner, bot, 'Taken over.', at, ['51']);
      const { lockedUntil } = await heldAhead(t.app, post.id);
      expect(lockedUntil.getTime(), 'leased until its lease after the due time').to.equal(at.getTime() + 2000);
      await worker.crashAndReplace();
      const settledPost = await waitForPost(t.app, t.owner, post.id, settled, 15_000);
      expect(settledPost.status).to.equal('published');
      expect(settledPost.targets[0]).to.include({ attempts: 1 });
      const messages = await botchat.onPlatform(bot.token);
      expect(messages.map((m) => m.text)).to.deep.equal(['Taken over.']);
      expect(messages[0]!.at, "sent once the dead worker's lease ran out").to.be.at.least(lockedUntil.getTime());
    });

    it('a worker that stops cleanly gives its targets back at once', async () => {
      const bot = await connectBot(t.app, t.owner);
      const post = await schedule(t.app, t.owner, bot, 'Given back.', secondsAhead(5000), ['52']);
      await heldAhead(t.app, post.id);
      await worker.stop();
      const row = await t.app.services.db('postTargets').where({ postId: post.id }).first();
      expect(row).to.include({ status: 'scheduled', leaseToken: null, lockedUntil: null });
      await worker.replace();
      expect((await waitForPost(t.app, t.owner, post.id, settled)).status).to.equal('published');
      expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Given back.']);
    });
  },
);

describeApi(
  'publishing — a worker holding as many targets ahead as it may',
  { settings: { publishing: { lookaheadSeconds: 10, lookaheadTargets: 2 } } },
  (t) => {
    it('waits for their due time rather than asking the database again and again', async () => {
      const bot = await connectBot(t.app, t.owner);
      const at = secondsAhead(3000);
      const posts = await Promise.all(['Held one.', 'Held two.'].map((text) => schedule(t.app, t.owner, bot, text, at, ['61'])));
      for (const post of posts) await heldAhead(t.app, post.id);
      // The worker's looks for due targets (its claims, and when the next comes due), not the API's reads of the posts.
      const asked: string[] = [];
      const listen = ({ sql }: { sql: string }) => {
        if (/WITH due AS|min\("due_at"\)/.test(sql) && Date.now() < at.getTime()) asked.push(sql);
      };
      t.app.services.db.on('query', listen);
      try {
        for (const post of posts) expect((await waitForPost(t.app, t.owner, post.id, settled)).status).to.equal('published');
      } finally {
        t.app.services.db.off('query', listen);
      }
      // Each claim loop looks for due targets at most once per poll (a second) while it waits: a few dozen at most.
      expect(asked.length, 'statements on post_targets while the held targets were not due yet').to.be.below(40);
    });
  },
);
