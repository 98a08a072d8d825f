import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectCreator } from '../../support/sandbox/short-video.js';
import { connectLocations, localPosts } from '../../support/sandbox/search-suite.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { eventsOf, postNow } from './posts-support.js';
import { fixture, uploadMedia } from './support.js';

const secondsAhead = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);

describeApi('updatePost — PATCH /posts/{id} of a published post: what its platforms let apps change, changed there', (t) => {
  const { botchat, socialNetwork } = t.sandbox;

  const edit = (postId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.api.patch(`/posts/${postId}`, { token: t.owner.key, body, headers });

  /** A published post on a page and on a bot (its first target), in one chat. */
  async function pageAndBotPost(text: string) {
    const [bot, page] = [await connectBot(t.app, t.owner), await connectNewPage(t.app, t.owner)];
    const post = await postNow(t.app, t.owner, {
      text,
      accountIds: [bot.accountId, page.accountId],
      platformOptions: { botchat: { chatIds: ['31'] } },
    });
    expect(post.status, JSON.stringify(post.targets)).to.equal('published');
    return { bot, page, post, pagePostId: post.targets[1].platformPostId as string };
  }

  const pageMessage = async (pageId: string, postId: string) =>
    (await socialNetwork.onPlatform(pageId)).posts.find((post) => post.id === postId)?.message;

  it("a page post's text: the page shows the new message, GET /posts/{id} the new text, and no event is sent", async () => {
    const page = await connectNewPage(t.app, t.owner);
    const post = await postNow(t.app, t.owner, { text: 'Open until 6 today.', accountIds: [page.accountId] });
    const edited = await edit(post.id, { text: 'Open until 8 today.' });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ id: post.id, status: 'published', text: 'Open until 8 today.', publishedAt: post.publishedAt });
    expect(edited.body.targets).to.deep.equal(post.targets);
    expect(await pageMessage(page.pageId, post.targets[0].platformPostId)).to.equal('Open until 8 today.');
    expect((await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key })).body.text).to.equal('Open until 8 today.');
    expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.processing', 'post.published']);
  });

  it("a bot's post: the message in every chat it went to takes the new text, a photo's its caption", async () => {
    const bot = await connectBot(t.app, t.owner);
    const post = await postNow(t.app, t.owner, {
      text: 'Fresh croissants at 7.',
      accountIds: [bot.accountId],
      platformOptions: { botchat: { chatIds: ['41', '42'] } },
    });
    const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
    const withPhoto = await postNow(t.app, t.owner, {
      text: 'The cup.',
      mediaIds: [photo],
      accountIds: [bot.accountId],
      platformOptions: { botchat: { chatIds: ['43'] } },
    });
    expect((await edit(post.id, { text: 'Fresh croissants at 8.' })).status).to.equal(200);
    expect((await edit(withPhoto.id, { text: 'The new cup.' })).status).to.equal(200);
    const messages = await botchat.onPlatform(bot.token);
    expect(messages.map((m) => [String(m.chatId), m.text, m.caption]).sort()).to.deep.equal([
      ['41', 'Fresh croissants at 8.', null],
      ['42', 'Fresh croissants at 8.', null],
      ['43', null, 'The new cup.'],
    ]);
  });

  it("a business location's local post: its summary changes in place", async () => {
    const [location] = await connectLocations(t.app, t.owner);
    const text = `Sunday hours, ${Date.now()}: 10 to 4.`;
    const post = await postNow(t.app, t.owner, { text, accountIds: [location] });
    const edited = await edit(post.id, { text: `${text} Brunch too.` });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    const [onPlatform] = await localPosts(t.app, location!, `${text} Brunch too.`);
    expect(onPlatform?.name).to.equal(post.targets[0].platformPostId);
    expect(await localPosts(t.app, location!, text)).to.deep.equal([]);
  });

  it('the description of PATCH /posts/{id} says per platform what can be edited, as each platform declares it', async () => {
    const contract = await t.app.api.get('/openapi.json');
    const description: string = contract.body.paths['/posts/{id}'].patch.description;
    const table = new Map([...description.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)].map(([, platform, what]) => [platform!, what!]));
    const publishing = t.app.services.platforms.all().filter((adapter) => adapter.publisher);
    expect([...table.keys()].sort()).to.deep.equal(publishing.map((adapter) => adapter.id).sort());
    for (const { id, publisher } of publishing) {
      const said = [...table.get(id)!.matchAll(/`([a-zA-Z]+)`/g)].map(([, member]) => member);
      expect(said, id).to.deep.equal(publisher!.edit ? [...(publisher!.editable ?? [])] : []);
    }
  });

  it('a post with a short_video target: 422 platform_cannot_edit naming short_video, and nothing is sent anywhere', async () => {
    const [bot, creator] = [await connectBot(t.app, t.owner), await connectCreator(t.app, t.owner)];
    const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
    const post = await postNow(t.app, t.owner, {
      text: 'The winter blend.',
      mediaIds: [photo],
      accountIds: [bot.accountId, creator.accountId],
      platformOptions: { botchat: { chatIds: ['51'] }, short_video: { privacyLevel: 'SELF_ONLY', title: 'Winter' } },
    });
    expect(post.status, JSON.stringify(post.targets)).to.equal('published');
    const refused = await edit(post.id, { text: 'The spring blend.' });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    expect(refused.body.code).to.equal('post_validation_failed');
    expect(refused.body.errors).to.have.length(1);
    expect(refused.body.errors[0]).to.include({
      path: 'body/text',
      code: 'platform_cannot_edit',
      platform: 'short_video',
      accountId: creator.accountId,
    });
    const [message] = await botchat.onPlatform(bot.token);
    expect(message).to.include({ caption: 'The winter blend.' });
    expect(message).not.to.have.property('editedAt');
    expect((await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key })).body).to.deep.equal(post);
  });

  it('media, time or options changed on a published post: 422 naming the member and the platform; the same values given are no change', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const post = await postNow(t.app, t.owner, { text: 'As published.', accountIds: [page.accountId] });
    const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
    const media = await edit(post.id, { text: 'With a photo.', mediaIds: [photo] });
    expect(media.status, JSON.stringify(media.body)).to.equal(422);
    expect(media.body.errors.map((e: { path: string; code: string; platform: string }) => [e.path, e.code, e.platform])).to.deep.equal([
      ['body/mediaIds', 'platform_cannot_edit', 'social_network'],
    ]);
    expect(media.body.errors[0].message).to.equal('social_network lets apps change only the text of a published post, not its media.');
    const later = await edit(post.id, { scheduledAt: secondsAhead(3_600_000).toISOString() });
    expect(later.status).to.equal(422);
    expect(later.body.errors[0]).to.include({ path: 'body/scheduledAt', code: 'platform_cannot_edit' });
    const options = await edit(post.id, { platformOptions: { social_network: { firstComment: 'Too late.' } } });
    expect(options.body.errors[0]).to.include({ path: 'body/platformOptions', code: 'platform_cannot_edit' });
    const same = await edit(post.id, { text: 'As published.', mediaIds: [], accountIds: [page.accountId], platformOptions: {} });
    expect(same.status, JSON.stringify(same.body)).to.equal(200);
    expect(same.body).to.deep.equal(post);
    expect(await pageMessage(page.pageId, post.targets[0].platformPostId)).to.equal('As published.');
  });

  it("a platform's refusal: 502, the post's text as it was; the target changed before it keeps the new text", async () => {
    const { bot, page, post, pagePostId } = await pageAndBotPost('Closed on Monday.');
    await socialNetwork.failNextCall({ status: 400, code: 368, message: '(#368) The action attempted has been deemed abusive' });
    const refused = await edit(post.id, { text: 'Open on Monday.' });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(502);
    expect(refused.body.code).to.equal('platform_error');
    expect((await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key })).body.text).to.equal('Closed on Monday.');
    expect(await pageMessage(page.pageId, pagePostId)).to.equal('Closed on Monday.');
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Open on Monday.']);
  });

  it('the same request again with its Idempotency-Key finishes the edit and sends no target twice', async () => {
    const { bot, page, post, pagePostId } = await pageAndBotPost('Closed on Monday.');
    const headers = { 'Idempotency-Key': 'monday-edit' };
    await socialNetwork.failNextCall({ status: 400, code: 368, message: '(#368) The action attempted has been deemed abusive' });
    expect((await edit(post.id, { text: 'Open on Monday.' }, headers)).status).to.equal(502);
    // The bot's next call is refused: had the retry sent the bot's edit again, it would answer 502.
    await botchat.failNext(bot.token, [{ kind: 'bad_request', description: 'Bad Request: chat not found' }]);
    const retried = await edit(post.id, { text: 'Open on Monday.' }, headers);
    expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
    expect(retried.body.text).to.equal('Open on Monday.');
    expect(await pageMessage(page.pageId, pagePostId)).to.equal('Open on Monday.');
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Open on Monday.']);
    // Done: the key asked again sends nothing (the post has the text), and another key with another text is an edit of its own.
    expect((await edit(post.id, { text: 'Open on Monday.' }, headers)).status).to.equal(200);
    const another = await edit(post.id, { text: 'Open on Monday, 9 to 5.' });
    expect(another.status, JSON.stringify(another.body)).to.equal(502);
    expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Open on Monday.']);
  });
});
