import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectLocations } from '../../support/sandbox/search-suite.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';

const hourAhead = () => new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000).toISOString();
const rule = (e: { platform: string | null; code: string; path: string }) => `${e.platform}:${e.code}:${e.path}`;

describeApi('validatePost — POST /posts/validate: every problem POST /posts would answer, nothing stored or sent', (t) => {
  it('answers every problem at once (the request’s own and each target’s), creates nothing; POST /posts refuses the same rules', async () => {
    const bot = await connectBot(t.app, t.owner);
    const [location] = await connectLocations(t.app, t.owner);
    const body = {
      text: 'x'.repeat(1600),
      accountIds: [bot.accountId, location, 'acc_01jd3z8x9y0a1b2c3d4e5f6g7y'],
      mediaIds: ['media_01jd4b7c8d9e0f1g2h3j4k5m6n'],
      platformOptions: { short_video: { privacyLevel: 'SELF_ONLY' } },
    };
    const checked = await t.app.api.post('/posts/validate', {
      token: t.owner.key,
      body: { ...body, scheduledAt: new Date(Date.now() - 60_000).toISOString(), timezone: 'Mars/Olympus' },
    });
    expect(checked.status, JSON.stringify(checked.body)).to.equal(200);
    expect(checked.body.valid).to.equal(false);
    const found = checked.body.errors.map(rule).sort();
    expect(found).to.include.members([
      'null:schedule_window:body/scheduledAt',
      'null:timezone:body/timezone',
      'null:account_not_found:body/accountIds/2',
      'null:media_not_found:body/mediaIds/0',
      'botchat:required_option:body/platformOptions/botchat/chatIds',
      'search_suite:max_length:body/text',
      'short_video:option_not_allowed:body/platformOptions/short_video',
    ]);
    // POST /posts answers the same platform rules (one code path), once the request's own are right.
    const refused = await t.app.api.post('/posts', { token: t.owner.key, body: { ...body, scheduledAt: hourAhead() } });
    expect(refused.status).to.equal(422);
    expect(refused.body.errors.map(rule).sort()).to.deep.equal(
      found.filter((r: string) => !r.startsWith('null:schedule_window') && !r.startsWith('null:timezone')),
    );
    expect(await t.app.services.db('posts').where({ ownerId: t.owner.ownerId })).to.have.length(0);

    const fine = await t.app.api.post('/posts/validate', {
      token: t.owner.key,
      body: { text: 'Fine.', accountIds: [bot.accountId], useQueue: true, platformOptions: { botchat: { chatIds: ['1'] } } },
    });
    expect(fine.body).to.deep.equal({
      valid: false,
      errors: [
        {
          path: 'body/useQueue',
          code: 'queue_slot_unavailable',
          message: 'The profile has no queue slot; create one with POST /queue/slots.',
          accountId: null,
          platform: null,
          limit: null,
        },
      ],
    });
    const valid = await t.app.api.post('/posts/validate', {
      token: t.owner.key,
      body: { text: 'Fine.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['1'] } } },
    });
    expect(valid.body).to.deep.equal({ valid: true, errors: [] });
    expect(await t.app.services.db('posts').where({ ownerId: t.owner.ownerId })).to.have.length(0);
    expect(await t.app.services.db('events').where({ ownerId: t.owner.ownerId }).whereLike('name', 'post.%')).to.have.length(0);
    expect(await t.sandbox.botchat.onPlatform(bot.token)).to.deep.equal([]);
  });
});

describeApi('createPostBatch — POST /posts/batch: up to 500 posts, created whole or not at all', (t) => {
  it('creates every post in order (scheduled, queued, draft, at once), replays with the same Idempotency-Key, and refuses a batch with one bad item whole', async () => {
    const bot = await connectBot(t.app, t.owner);
    const options = { botchat: { chatIds: ['9'] } };
    await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, dayOfWeek: 'tuesday', time: '10:00', timezone: 'UTC' },
    });
    const at = hourAhead();
    const posts = [
      { text: 'Scheduled.', accountIds: [bot.accountId], scheduledAt: at, platformOptions: options },
      { text: 'Queued first.', accountIds: [bot.accountId], useQueue: true, platformOptions: options },
      { text: 'Queued second.', accountIds: [bot.accountId], useQueue: true, platformOptions: options },
      { text: 'Draft.', accountIds: [bot.accountId], draft: true, platformOptions: options },
      { text: 'Now.', accountIds: [bot.accountId], publishNow: true, platformOptions: options },
    ];
    const created = await t.app.api.post('/posts/batch', {
      token: t.owner.key,
      headers: { 'Idempotency-Key': 'batch-1' },
      body: { posts },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const data = created.body.data as Array<{ index: number; status: string; post: any }>;
    expect(data.map((item) => [item.index, item.status, item.post.text, item.post.status])).to.deep.equal([
      [0, 'created', 'Scheduled.', 'scheduled'],
      [1, 'created', 'Queued first.', 'scheduled'],
      [2, 'created', 'Queued second.', 'scheduled'],
      [3, 'created', 'Draft.', 'draft'],
      [4, 'created', 'Now.', 'processing'],
    ]);
    expect(data[0]!.post.scheduledAt).to.equal(at);
    // Consecutive Tuesdays at 10:00 UTC.
    const [first, second] = [Date.parse(data[1]!.post.scheduledAt), Date.parse(data[2]!.post.scheduledAt)];
    expect(second - first).to.equal(7 * 24 * 3600 * 1000);
    expect((await waitForPost(t.app, t.owner, data[4]!.post.id, settled)).status).to.equal('published');
    expect((await eventsOf(t.app, data[0]!.post.id)).map((e) => e.name)).to.deep.equal(['post.scheduled']);
    expect(await eventsOf(t.app, data[3]!.post.id)).to.deep.equal([]);

    const replay = await t.app.api.post('/posts/batch', { token: t.owner.key, headers: { 'Idempotency-Key': 'batch-1' }, body: { posts } });
    expect(replay.body.data.map((item: { post: { id: string } }) => item.post.id)).to.deep.equal(data.map((item) => item.post.id));
    expect(await t.app.services.db('posts').where({ ownerId: t.owner.ownerId })).to.have.length(5);

    const refused = await t.app.api.post('/posts/batch', {
      token: t.owner.key,
      body: { posts: [posts[0], { text: 'No options.', accountIds: [bot.accountId], scheduledAt: at }, posts[3]] },
    });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    expect(refused.body.code).to.equal('post_validation_failed');
    expect(refused.body.items.map((item: { index: number; status: string; errors: unknown[] }) => [item.index, item.status])).to.deep.equal(
      [
        [0, 'valid'],
        [1, 'invalid'],
        [2, 'valid'],
      ],
    );
    expect(refused.body.errors.map(rule)).to.deep.equal(['botchat:required_option:body/posts/1/platformOptions/botchat/chatIds']);
    expect(await t.app.services.db('posts').where({ ownerId: t.owner.ownerId })).to.have.length(5);

    const tooMany = await t.app.api.post('/posts/batch', {
      token: t.owner.key,
      body: { posts: Array.from({ length: 501 }, () => posts[3]) },
    });
    expect(tooMany.status).to.equal(400);
  });
});
