import { expect } from 'chai';
import { accountOnceIn } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectLocations, localPosts } from '../../support/sandbox/search-suite.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';
import { animatedGif, noisyPng, upload } from './support.js';

describeApi('posts — publishing now, on time, partly, and again', (t) => {
  const { botchat, searchSuite } = t.sandbox;

  it('createPost (publishNow) — one post to a bot (two chats) and a business location: 202, both published once, events in order', async () => {
    const bot = await connectBot(t.app, t.owner);
    const [location] = await connectLocations(t.app, t.owner);
    await botchat.newChannel('@acme_news');
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      headers: { 'Idempotency-Key': 'now-1' },
      body: {
        text: 'Our winter blend is back.',
        accountIds: [bot.accountId, location],
        publishNow: true,
        platformOptions: {
          botchat: { chatIds: ['@acme_news', '4242'] },
          search_suite: { topicType: 'standard', callToAction: { actionType: 'order', url: 'https://acme.example/order' } },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    expect(created.body.status).to.equal('processing');
    expect(created.body.targets.map((t: { status: string }) => t.status)).to.deep.equal(['processing', 'processing']);
    const post = await waitForPost(t.app, t.owner, created.body.id, settled);
    expect(post.status).to.equal('published');
    const [botTarget, locationTarget] = post.targets;
    expect(botTarget).to.include({ accountId: bot.accountId, platform: 'botchat', status: 'published', attempts: 1, failure: null });
    expect(botTarget.platformPostId).to.match(/^-100\d+:\d+$/);
    expect(botTarget.url).to.match(/^https:\/\/t\.me\/acme_news\/\d+$/);
    expect(locationTarget).to.include({ platform: 'search_suite', status: 'published', attempts: 1 });
    expect(locationTarget.platformPostId).to.match(/^accounts\/1010\/locations\/\d+\/localPosts\/\d+$/);
    expect(post.publishedAt).to.be.a('string');

    const messages = await botchat.onPlatform(bot.token);
    expect(messages.map((m) => m.text)).to.deep.equal(['Our winter blend is back.', 'Our winter blend is back.']);
    const onPlatform = await localPosts(t.app, location!, 'Our winter blend is back.');
    expect(onPlatform.filter((p) => p.name === locationTarget.platformPostId)).to.have.length(1);
    expect(onPlatform[0]).to.deep.include({
      summary: 'Our winter blend is back.',
      callToAction: { actionType: 'ORDER', url: 'https://acme.example/order' },
    });

    // The same key and body replay the answer; nothing is posted again.
    const replay = await t.app.api.post('/posts', {
      token: t.owner.key,
      headers: { 'Idempotency-Key': 'now-1' },
      body: {
        text: 'Our winter blend is back.',
        accountIds: [bot.accountId, location],
        publishNow: true,
        platformOptions: {
          botchat: { chatIds: ['@acme_news', '4242'] },
          search_suite: { topicType: 'standard', callToAction: { actionType: 'order', url: 'https://acme.example/order' } },
        },
      },
    });
    expect(replay.body.id).to.equal(created.body.id);
    const events = await eventsOf(t.app, created.body.id);
    expect(events.map((e) => e.name)).to.deep.equal(['post.processing', 'post.published']);
    expect(events[1]!.data).to.include({ postId: created.body.id, status: 'published', scheduledAt: null });
    expect(await botchat.onPlatform(bot.token)).to.have.length(2);
  });

  it('a photo: the bot sends it with the caption and the location posts it, both fetching it from its public url; a GIF is refused by both', async () => {
    const bot = await connectBot(t.app, t.owner);
    const [location] = await connectLocations(t.app, t.owner);
    const bytes = noisyPng(300, 300);
    const uploaded = await upload(
      t.app,
      t.owner.key,
      { bytes, filename: 'beans.png', type: 'image/png' },
      { profileId: t.owner.profileId },
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Look at these beans.',
        mediaIds: [uploaded.body.id],
        accountIds: [bot.accountId, location],
        publishNow: true,
        platformOptions: { botchat: { chatIds: ['88'] } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const post = await waitForPost(t.app, t.owner, created.body.id, settled);
    expect(post.status, JSON.stringify(post.targets)).to.equal('published');
    const [message] = await botchat.onPlatform(bot.token);
    expect(message).to.include({ caption: 'Look at these beans.', text: null });
    expect(message!.photo).to.equal(uploaded.body.url);
    const [local] = await localPosts(t.app, location!, 'Look at these beans.');
    expect((local as any).media[0]).to.include({ mediaFormat: 'PHOTO', sourceUrl: uploaded.body.url });

    const gif = await upload(t.app, t.owner.key, { bytes: animatedGif(3, 10), filename: 'steam.gif', type: 'image/gif' });
    const refused = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        mediaIds: [gif.body.id],
        accountIds: [bot.accountId, location],
        publishNow: true,
        platformOptions: { botchat: { chatIds: ['88'] } },
      },
    });
    expect(refused.status).to.equal(422);
    const rules = refused.body.errors.map((e: { platform: string; code: string; path: string }) => `${e.platform}:${e.code}:${e.path}`);
    expect(rules).to.include.members(['botchat:media_type:body/mediaIds/0', 'search_suite:media_type:body/mediaIds/0']);
  });

  it('refuses with 422 post_validation_failed naming every target and rule, and creates nothing', async () => {
    const bot = await connectBot(t.app, t.owner);
    const [location] = await connectLocations(t.app, t.owner);
    const calendar = await t.app.services
      .db('accounts')
      .insert({
        id: 'acc_01jd3z8x9y0a1b2c3d4e5f6g7z',
        ownerId: t.owner.ownerId,
        profileId: t.owner.profileId,
        platform: 'calendar',
        kind: 'calendar',
        platformAccountId: 'cal@example.com',
        name: 'Bookings',
        status: 'connected',
      })
      .returning('id');
    const response = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'x'.repeat(1600),
        accountIds: [bot.accountId, location, calendar[0].id, 'acc_01jd3z8x9y0a1b2c3d4e5f6g7y'],
        publishNow: true,
        platformOptions: { short_video: { privacyLevel: 'SELF_ONLY' }, search_suite: { topicType: 'event' } },
      },
    });
    expect(response.status).to.equal(422);
    expect(response.body.code).to.equal('post_validation_failed');
    const rules = response.body.errors
      .map((e: { code: string; accountId: string | null; platform: string | null }) => `${e.platform}:${e.code}`)
      .sort();
    expect(rules).to.deep.equal([
      'botchat:required_option',
      'calendar:account_cannot_publish',
      'null:account_not_found',
      'search_suite:max_length',
      'search_suite:required_option',
      'short_video:option_not_allowed',
    ]);
    const tooLong = response.body.errors.find((e: { code: string }) => e.code === 'max_length');
    expect(tooLong).to.include({ accountId: location, path: 'body/text', limit: 1500 });
    expect(await t.app.services.db('posts').where({ ownerId: t.owner.ownerId })).to.have.length(0);
  });

  it('a scheduled post fires on time: published within a second of scheduledAt, post.scheduled first', async () => {
    const bot = await connectBot(t.app, t.owner);
    const scheduledAt = new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000);
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'On the dot.',
        accountIds: [bot.accountId],
        scheduledAt: scheduledAt.toISOString(),
        timezone: 'Europe/Berlin',
        platformOptions: { botchat: { chatIds: ['77'] } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ status: 'scheduled', timezone: 'Europe/Berlin', scheduledAt: scheduledAt.toISOString() });
    expect(await botchat.onPlatform(bot.token)).to.have.length(0);
    const post = await waitForPost(t.app, t.owner, created.body.id, settled, 10_000);
    expect(post.status).to.equal('published');
    const [message] = await botchat.onPlatform(bot.token);
    expect(message!.at).to.be.at.least(scheduledAt.getTime());
    expect(message!.at - scheduledAt.getTime()).to.be.below(1000);
    expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.scheduled', 'post.processing', 'post.published']);
    const tooSoon = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'x',
        accountIds: [bot.accountId],
        scheduledAt: new Date().toISOString(),
        platformOptions: { botchat: { chatIds: ['1'] } },
      },
    });
    expect(tooSoon.status).to.equal(400);
  });

  it('a partial failure (rate limited past its retries) is retried for the failed target only', async () => {
    const bot = await connectBot(t.app, t.owner);
    const [location] = await connectLocations(t.app, t.owner);
    await searchSuite.failNext([{ kind: 'rate_limited' }, { kind: 'rate_limited' }, { kind: 'rate_limited' }]);
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Half way.',
        accountIds: [bot.accountId, location],
        publishNow: true,
        platformOptions: { botchat: { chatIds: ['55'] } },
      },
    });
    // Between the tries the target says why it waits, and until when; nothing is asked of the user yet.
    const waiting = await waitForPost(
      t.app,
      t.owner,
      created.body.id,
      (post) => post.targets[1].lastError !== null || settled(post),
      15_000,
    );
    expect(waiting.targets[1]).to.include({ status: 'processing', failure: null });
    expect(waiting.targets[1].lastError).to.include({ code: 'rate_limited', action: 'none' });
    expect(waiting.targets[1].lastError.message).to.match(/tried again automatically/);
    expect(Date.parse(waiting.targets[1].nextAttemptAt)).to.be.greaterThan(Date.parse(waiting.targets[1].lastError.failedAt));
    const partial = await waitForPost(t.app, t.owner, created.body.id, settled, 15_000);
    expect(partial.status).to.equal('partial');
    expect(partial.targets[0]).to.include({ status: 'published' });
    expect(partial.targets[1]).to.include({ status: 'failed', attempts: 3, lastError: null, nextAttemptAt: null });
    expect(partial.targets[1].failure).to.include({ code: 'rate_limited', action: 'retry_later', retryable: true });
    const failedEvents = (await eventsOf(t.app, created.body.id)).filter(
      (e) => e.name === 'post.platform.failed' || e.name === 'post.partial',
    );
    expect(failedEvents.map((e) => e.name)).to.deep.equal(['post.platform.failed', 'post.partial']);
    expect(failedEvents[0]!.data.target).to.include({ accountId: location, status: 'failed' });

    expect(
      (await t.app.api.post(`/posts/${created.body.id}/retry`, { token: t.owner.key, body: { accountIds: [bot.accountId] } })).status,
    ).to.equal(409);
    const retried = await t.app.api.post(`/posts/${created.body.id}/retry`, { token: t.owner.key });
    expect(retried.status).to.equal(202);
    expect(retried.body.status).to.equal('processing');
    expect(retried.body.targets.map((t: { status: string }) => t.status)).to.deep.equal(['published', 'processing']);
    const done = await waitForPost(t.app, t.owner, created.body.id, settled);
    expect(done.status).to.equal('published');
    expect(done.targets[1]).to.include({ status: 'published', attempts: 4, failure: null });
    expect(await botchat.onPlatform(bot.token)).to.have.length(1);
    expect(await localPosts(t.app, location!, 'Half way.')).to.have.length(1);
  });

  it('a revoked bot fails its target (reconnect_account) and marks the account needs_reconnection', async () => {
    const bot = await connectBot(t.app, t.owner);
    await botchat.revokeToken(bot.token);
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text: 'Hello?', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['1'] } } },
    });
    const post = await waitForPost(t.app, t.owner, created.body.id, settled);
    expect(post.status).to.equal('failed');
    expect(post.targets[0].failure).to.include({ code: 'account_needs_reconnection', action: 'reconnect_account', platformCode: '401' });
    expect(await accountOnceIn(t.app, t.owner, bot.accountId, 'needs_reconnection')).to.include({ status: 'needs_reconnection' });
    expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.processing', 'post.platform.failed', 'post.failed']);
    const again = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text: 'Hello?', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['1'] } } },
    });
    expect(again.status).to.equal(422);
    expect(again.body.errors[0]).to.include({ code: 'account_needs_reconnection', accountId: bot.accountId });
  });

  it('deletePost — cancels a scheduled post; deletes a published one from the bot and the location', async () => {
    const bot = await connectBot(t.app, t.owner);
    const [location] = await connectLocations(t.app, t.owner);
    const later = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Later.',
        accountIds: [bot.accountId],
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
        platformOptions: { botchat: { chatIds: ['9'] } },
      },
    });
    const cancelled = await t.app.api.delete(`/posts/${later.body.id}`, { token: t.owner.key });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.deep.include({ postId: later.body.id, status: 'cancelled' });
    expect(cancelled.body.targets[0]).to.include({ result: 'cancelled' });

    const now = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Gone soon.',
        accountIds: [bot.accountId, location],
        publishNow: true,
        platformOptions: { botchat: { chatIds: ['9', '10'] } },
      },
    });
    const published = await waitForPost(t.app, t.owner, now.body.id, settled);
    expect(published.status).to.equal('published');
    const deleted = await t.app.api.delete(`/posts/${now.body.id}`, { token: t.owner.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.status).to.equal('deleted');
    expect(deleted.body.targets.map((t: { result: string }) => t.result)).to.deep.equal(['deleted', 'deleted']);
    expect((await botchat.onPlatform(bot.token)).every((m) => m.deleted)).to.equal(true);
    expect(await localPosts(t.app, location!, 'Gone soon.')).to.have.length(0);
    expect(
      (await t.app.api.get(`/posts/${now.body.id}`, { token: t.owner.key })).body.targets.map((t: { status: string }) => t.status),
    ).to.deep.equal(['deleted', 'deleted']);
  });

  itPagesByKeyset(t, 'listPosts, filtered by account, status, profile and time', async (count) => {
    const bot = await connectBot(t.app, t.owner);
    const base = Date.now() + 7_200_000;
    const made: Array<{ id: string; at: number }> = [];
    for (let n = 0; n < count; n += 1) {
      const at = base + n * 60_000;
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: {
          text: `Post ${n}`,
          accountIds: [bot.accountId],
          scheduledAt: new Date(at).toISOString(),
          platformOptions: { botchat: { chatIds: ['1'] } },
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      made.unshift({ id: created.body.id, at });
    }
    // Latest scheduledAt first; the period includes its start and excludes its end.
    const [from, to] = [base + 60_000, base + 180_000];
    const query = `accountId=${bot.accountId}&status=scheduled&profileId=${t.owner.profileId}&from=${encodeURIComponent(new Date(from).toISOString())}&to=${encodeURIComponent(new Date(to).toISOString())}`;
    const inPeriod = made.filter((post) => post.at >= from && post.at < to).map((post) => post.id);
    return { path: '/posts', ids: made.map((post) => post.id), filter: { query, ids: inPeriod } };
  });

  it("listPosts — other statuses, a period that ends before it starts (400), and another owner's posts (404)", async () => {
    const bot = await connectBot(t.app, t.owner);
    const base = Date.now() + 7_200_000;
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Later',
        accountIds: [bot.accountId],
        scheduledAt: new Date(base).toISOString(),
        platformOptions: { botchat: { chatIds: ['1'] } },
      },
    });
    expect((await t.app.api.get('/posts?status=published', { token: t.owner.key })).body.data).to.have.length(0);
    const backwards = await t.app.api.get(
      `/posts?from=${encodeURIComponent(new Date(base).toISOString())}&to=${encodeURIComponent(new Date(base - 1).toISOString())}`,
      { token: t.owner.key },
    );
    expect(backwards.status).to.equal(400);
    const other = await newOwner(t.app.api);
    expect((await t.app.api.get(`/posts/${created.body.id}`, { token: other.key })).status).to.equal(404);
  });
});
