import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { until } from '../../support/wait.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';

/** The next whole second at least `ms` from now (the scheduler's wake-ups are per second). */
const secondsAhead = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);

describeApi('updatePost — PATCH /posts/{id}: editing and rescheduling, against the scheduler', (t) => {
  const { botchat } = t.sandbox;

  async function schedule(bot: { accountId: string }, text: string, at: Date, chatIds = ['77']) {
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text, accountIds: [bot.accountId], scheduledAt: at.toISOString(), platformOptions: { botchat: { chatIds } } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body;
  }

  it('a scheduled post edited (text, options, an earlier time) is published as edited, at its new time; post.scheduled again with it', async () => {
    const bot = await connectBot(t.app, t.owner);
    const post = await schedule(bot, 'As first written.', secondsAhead(3_600_000));
    const at = secondsAhead(3500);
    const edited = await t.app.api.patch(`/posts/${post.id}`, {
      token: t.owner.key,
      body: {
        text: 'As edited.',
        platformOptions: { botchat: { chatIds: ['88', '99'] } },
        scheduledAt: at.toISOString(),
        timezone: 'Europe/Berlin',
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({
      id: post.id,
      status: 'scheduled',
      text: 'As edited.',
      scheduledAt: at.toISOString(),
      timezone: 'Europe/Berlin',
    });
    expect(edited.body.platformOptions).to.deep.equal({ botchat: { chatIds: ['88', '99'] } });
    const published = await waitForPost(t.app, t.owner, post.id, settled);
    expect(published.status).to.equal('published');
    const messages = await botchat.onPlatform(bot.token);
    expect(messages.map((m) => [String(m.chatId), m.text]).sort()).to.deep.equal([
      ['88', 'As edited.'],
      ['99', 'As edited.'],
    ]);
    expect(Math.min(...messages.map((m) => m.at))).to.be.at.least(at.getTime());
    const events = await eventsOf(t.app, post.id);
    expect(events.map((e) => e.name)).to.deep.equal(['post.scheduled', 'post.scheduled', 'post.processing', 'post.published']);
    expect(events[1]!.data).to.include({ status: 'scheduled', scheduledAt: at.toISOString() });
  });

  it('an edit while a worker claims the post answers 409 and changes nothing; the post is published as it was', async () => {
    const bot = await connectBot(t.app, t.owner);
    const { db } = t.app.services;
    const post = await schedule(bot, 'As first written.', secondsAhead(3000));
    // Held as a row that refers to the post holds it (FOR KEY SHARE): the claim that comes takes the post's targets,
    // then waits here for the post itself, mid-claim.
    const holder = await db.transaction();
    try {
      await holder.raw('SELECT 1 FROM posts WHERE id = ? FOR KEY SHARE', [post.id]);
      await until(
        async () =>
          (
            await db.raw(
              `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%UPDATE posts SET status = ''processing''%'`,
            )
          ).rows[0].n as number,
        { done: (n) => n === 1, what: 'a claim holding the targets and waiting for the post', timeoutMs: 10_000 },
      );
      const edit = await t.app.api.patch(`/posts/${post.id}`, {
        token: t.owner.key,
        body: { text: 'Too late.', scheduledAt: secondsAhead(3_600_000).toISOString() },
      });
      expect(edit.status, JSON.stringify(edit.body)).to.equal(409);
      expect(edit.body.code).to.equal('post_status_conflict');
    } finally {
      await holder.rollback();
    }
    const published = await waitForPost(t.app, t.owner, post.id, settled);
    expect(published).to.include({ status: 'published', text: 'As first written.', scheduledAt: post.scheduledAt });
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['As first written.']);
    expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.scheduled', 'post.processing', 'post.published']);
    // Published: its time is past changing.
    const after = await t.app.api.patch(`/posts/${post.id}`, {
      token: t.owner.key,
      body: { scheduledAt: secondsAhead(3_600_000).toISOString() },
    });
    expect(after.status).to.equal(422);
    expect(after.body.errors[0]).to.include({ path: 'body/scheduledAt', code: 'platform_cannot_edit', platform: 'botchat' });
  });

  it('refusals change nothing: two times at once (400), a rule a target breaks (422), an account of another profile (422)', async () => {
    const bot = await connectBot(t.app, t.owner);
    const post = await schedule(bot, 'Stays as it is.', secondsAhead(3_600_000));
    const twoTimes = await t.app.api.patch(`/posts/${post.id}`, {
      token: t.owner.key,
      body: { scheduledAt: secondsAhead(7_200_000).toISOString(), publishNow: true },
    });
    expect(twoTimes.status).to.equal(400);
    const noOptions = await t.app.api.patch(`/posts/${post.id}`, { token: t.owner.key, body: { text: 'New.', platformOptions: {} } });
    expect(noOptions.status).to.equal(422);
    expect(noOptions.body.errors.map((e: { code: string; platform: string }) => `${e.platform}:${e.code}`)).to.deep.equal([
      'botchat:required_option',
    ]);
    const noContent = await t.app.api.patch(`/posts/${post.id}`, { token: t.owner.key, body: { text: null } });
    expect(noContent.status).to.equal(400);
    const profile = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Elsewhere' } });
    expect(profile.status, JSON.stringify(profile.body)).to.equal(201);
    const other = await t.app.api.post('/connect/botchat', {
      token: t.owner.key,
      body: { profileId: profile.body.id, botToken: (await botchat.newBot('Other')).token },
    });
    expect(other.status, JSON.stringify(other.body)).to.equal(201);
    const moved = await t.app.api.patch(`/posts/${post.id}`, { token: t.owner.key, body: { accountIds: [other.body.id] } });
    expect(moved.status).to.equal(422);
    expect(moved.body.errors[0]).to.include({ code: 'account_other_profile', accountId: other.body.id });
    const now = await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key });
    expect(now.body).to.deep.equal(post);
    expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.scheduled']);
  });
});

describeApi('drafts — saved with no time, then scheduled, queued or published by PATCH', (t) => {
  const { botchat } = t.sandbox;

  it('a draft is listed and filtered as draft, with no time, never published, and emits nothing', async () => {
    const bot = await connectBot(t.app, t.owner);
    const draft = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text: 'Thinking about it.', accountIds: [bot.accountId], draft: true, platformOptions: { botchat: { chatIds: ['5'] } } },
    });
    expect(draft.status, JSON.stringify(draft.body)).to.equal(201);
    expect(draft.body).to.include({ status: 'draft', scheduledAt: null, slotId: null });
    expect(draft.body.targets.map((target: { status: string }) => target.status)).to.deep.equal(['draft']);
    const scheduled = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Decided.',
        accountIds: [bot.accountId],
        scheduledAt: secondsAhead(3_600_000).toISOString(),
        platformOptions: { botchat: { chatIds: ['5'] } },
      },
    });
    const drafts = await t.app.api.get('/posts?status=draft', { token: t.owner.key });
    expect(drafts.body.data.map((post: { id: string }) => post.id)).to.deep.equal([draft.body.id]);
    const all = await t.app.api.get('/posts', { token: t.owner.key });
    expect(all.body.data.map((post: { id: string }) => post.id).sort()).to.deep.equal([draft.body.id, scheduled.body.id].sort());
    // Edited, it stays a draft.
    const edited = await t.app.api.patch(`/posts/${draft.body.id}`, { token: t.owner.key, body: { text: 'Still thinking.' } });
    expect(edited.body).to.include({ status: 'draft', text: 'Still thinking.', scheduledAt: null });
    expect(await t.app.services.db('postTargets').where({ postId: draft.body.id, status: 'draft' }).whereNull('dueAt')).to.have.length(1);
    expect(await eventsOf(t.app, draft.body.id)).to.deep.equal([]);
    expect(await botchat.onPlatform(bot.token)).to.deep.equal([]);
    // Cancelled like a scheduled post.
    const cancelled = await t.app.api.delete(`/posts/${draft.body.id}`, { token: t.owner.key });
    expect(cancelled.body).to.deep.include({ status: 'cancelled' });
  });

  it('a draft is published by PATCH publishNow, another scheduled, another queued; a scheduled post becomes a draft again', async () => {
    const bot = await connectBot(t.app, t.owner);
    const make = async (text: string) =>
      (
        await t.app.api.post('/posts', {
          token: t.owner.key,
          body: { text, accountIds: [bot.accountId], draft: true, platformOptions: { botchat: { chatIds: ['6'] } } },
        })
      ).body;
    const [now, later, queued] = [await make('Now.'), await make('Later.'), await make('Queued.')];
    const published = await t.app.api.patch(`/posts/${now.id}`, { token: t.owner.key, body: { publishNow: true } });
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    expect(published.body.status).to.equal('processing');
    expect((await waitForPost(t.app, t.owner, now.id, settled)).status).to.equal('published');
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Now.']);
    expect((await eventsOf(t.app, now.id)).map((e) => e.name)).to.deep.equal(['post.processing', 'post.published']);

    const at = secondsAhead(3_600_000).toISOString();
    const scheduled = await t.app.api.patch(`/posts/${later.id}`, { token: t.owner.key, body: { scheduledAt: at } });
    expect(scheduled.body).to.include({ status: 'scheduled', scheduledAt: at, timezone: 'UTC' });
    expect((await eventsOf(t.app, later.id)).map((e) => [e.name, e.data.scheduledAt])).to.deep.equal([['post.scheduled', at]]);

    const slot = await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' },
    });
    const inQueue = await t.app.api.patch(`/posts/${queued.id}`, { token: t.owner.key, body: { useQueue: true } });
    expect(inQueue.body).to.include({ status: 'scheduled', slotId: slot.body.id, timezone: 'Europe/Berlin' });

    const undone = await t.app.api.patch(`/posts/${later.id}`, { token: t.owner.key, body: { draft: true } });
    expect(undone.body).to.include({ status: 'draft', scheduledAt: null });
    expect(await t.app.services.db('postTargets').where({ postId: later.id }).first()).to.include({ status: 'draft', dueAt: null });
  });
});
