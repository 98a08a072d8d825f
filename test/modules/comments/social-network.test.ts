import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { uploadPhoto, uploadVideo } from '../publishing/support.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectCreator } from '../../support/sandbox/short-video.js';
import { type ConnectedPage, connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';

interface Comment {
  commentId: string;
  parentId: string | null;
  text: string;
  isHidden: boolean;
  from: { id: string; name: string | null };
  replyCount: number;
  capabilities: { canHide: boolean; canDelete: boolean; canReply: boolean; canReplyPrivately: boolean };
}

describeApi('comments — social_network pages', (t) => {
  const { socialNetwork } = t.sandbox;
  const lena = { id: '6734519027381945', name: 'Lena Fischer' };

  /** A connected page with one post made in the page's app. */
  async function pageWithPost(message = 'The Ethiopia blend is back.'): Promise<ConnectedPage & { postId: string }> {
    const page = await connectNewPage(t.app, t.owner);
    const post = await socialNetwork.postInApp(page.pageId, message);
    return { ...page, postId: post.id };
  }
  async function list(accountId: string, query = ''): Promise<Comment[]> {
    const listed = await t.app.api.get(`/accounts/${accountId}/comments${query}`, { token: t.owner.key });
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    return listed.body.data;
  }
  const reply = (accountId: string, body: Record<string, unknown>, key?: string) =>
    t.app.api.post(`/accounts/${accountId}/comments`, {
      token: t.owner.key,
      body,
      ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
    });
  const hide = (accountId: string, commentId: string, hidden: boolean) =>
    t.app.api.post(`/accounts/${accountId}/comments/hide`, { token: t.owner.key, body: { commentId, hidden } });
  const onPage = async (page: ConnectedPage & { postId: string }) =>
    (await socialNetwork.onPlatform(page.pageId)).posts.find((post) => post.id === page.postId)!.comments;

  it("a person's comment arrives by the page's feed webhook, is kept, and is listed with what the page may do to it", async () => {
    const page = await pageWithPost();
    expect(await list(page.accountId)).to.deep.equal([]);
    const { comment, deliveries } = await socialNetwork.comment(page.postId, 'Is it back in stock?', { from: lena });
    expect(deliveries.map((d) => d.status)).to.deep.equal([200]);
    await quiescent(t.app);
    const [listed, ...others] = await list(page.accountId, `?postId=${page.postId}`);
    expect(others).to.deep.equal([]);
    expect(listed).to.deep.include({
      commentId: comment.id,
      accountId: page.accountId,
      platform: 'social_network',
      postId: page.postId,
      parentId: null,
      text: 'Is it back in stock?',
      isHidden: false,
      replyCount: 0,
      from: { id: lena.id, name: lena.name, username: null, phone: null },
      capabilities: { canHide: true, canDelete: true, canReply: true, canReplyPrivately: true },
    });
  });

  it('a comment answered privately can take no other private reply: canReplyPrivately turns false', async () => {
    const page = await pageWithPost();
    const { comment } = await socialNetwork.comment(page.postId, 'Is it back in stock?', { from: lena });
    await quiescent(t.app);
    const read = async () => (await list(page.accountId)).find((c) => c.commentId === comment.id)!.capabilities;
    expect(await read()).to.include({ canReplyPrivately: true });
    const answered = await t.app.api.post(`/accounts/${page.accountId}/messages`, {
      token: t.owner.key,
      body: { commentId: comment.id, text: 'It is: sent you the link.' },
    });
    expect(answered.status, JSON.stringify(answered.body)).to.equal(201);
    expect(await read()).to.include({ canReplyPrivately: false, canReply: true });
  });

  it("a post's first list reads its comments from the platform once; later lists read the store", async () => {
    const page = await connectNewPage(t.app, t.owner);
    // Made in the app before anything was listed: no webhook told the service about these.
    const post = await socialNetwork.postInApp(page.pageId, 'Made in the app.', { comments: ['Lovely', 'When?'] });
    expect((await list(page.accountId, `?postId=${post.id}`)).map((c) => c.text)).to.have.members(['Lovely', 'When?']);
    // The platform throttles the next call: a list from the store makes none, a hide meets it.
    await socialNetwork.failNextCall({ code: 32, message: '(#32) Page request limit reached' });
    expect(await list(page.accountId, `?postId=${post.id}`)).to.have.length(2);
    const [first] = await list(page.accountId, `?postId=${post.id}`);
    const throttled = await hide(page.accountId, first!.commentId, true);
    expect(throttled.status).to.equal(429);
    expect(throttled.body.code).to.equal('platform_rate_limited');
    expect(throttled.headers.get('retry-after')).to.match(/^\d+$/);
  });

  it('the first list of the whole account reads the comments of its recent posts', async () => {
    const page = await connectNewPage(t.app, t.owner);
    await socialNetwork.postInApp(page.pageId, 'One', { comments: ['First!'] });
    await socialNetwork.postInApp(page.pageId, 'Two', { comments: ['Second!'] });
    expect((await list(page.accountId)).map((c) => c.text)).to.have.members(['First!', 'Second!']);
    expect((await list(page.accountId, '?since=2000-01-01T00:00:00Z&until=2001-01-01T00:00:00Z')).length).to.equal(0);
  });

  it("an expired page token, met on the first read of a post, asks for the account's reconnection (409)", async () => {
    const page = await pageWithPost();
    await socialNetwork.failNextCall({ code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' });
    const refused = await t.app.api.get(`/accounts/${page.accountId}/comments?postId=${page.postId}`, { token: t.owner.key });
    expect(refused.status).to.equal(409);
    expect(refused.body.code).to.equal('account_not_connected');
    const account = await t.app.api.get(`/accounts/${page.accountId}`, { token: t.owner.key });
    expect(account.body.status).to.equal('needs_reconnection');
  });

  it('a webhook delivered twice keeps one comment', async () => {
    const page = await pageWithPost();
    await socialNetwork.failComments(page.pageId, [{ kind: 'duplicate_webhooks' }]);
    const { deliveries } = await socialNetwork.comment(page.postId, 'Twice?', { from: lena });
    expect(deliveries.map((d) => d.status)).to.deep.equal([200, 200]);
    await quiescent(t.app);
    expect((await list(page.accountId, `?postId=${page.postId}`)).map((c) => c.text)).to.deep.equal(['Twice?']);
  });

  it('webhooks out of order: an edit before its comment keeps the edit; a removal before it never brings it back', async () => {
    const page = await pageWithPost();
    await list(page.accountId, `?postId=${page.postId}`);
    await socialNetwork.failComments(page.pageId, [{ kind: 'hold_webhooks', count: 2 }]);
    const { comment: edited } = await socialNetwork.comment(page.postId, 'Frist', { from: lena });
    await socialNetwork.editComment(edited.id, 'First, I mean');
    await socialNetwork.failComments(page.pageId, [{ kind: 'hold_webhooks', count: 2 }]);
    const { comment: removed } = await socialNetwork.comment(page.postId, 'Buy followers here', { from: lena });
    await socialNetwork.removeComment(removed.id);
    await quiescent(t.app);
    const listed = await list(page.accountId, `?postId=${page.postId}`);
    expect(listed.map((c) => [c.commentId, c.text])).to.deep.equal([[edited.id, 'First, I mean']]);
  });

  it('a comment its author removes leaves the list, and its replies with it', async () => {
    const page = await pageWithPost();
    const { comment } = await socialNetwork.comment(page.postId, 'Spam, spam', { from: lena });
    await socialNetwork.comment(page.postId, 'Agreed!', { parentId: comment.id, from: { id: '777', name: 'Max' } });
    await socialNetwork.comment(page.postId, 'Staying.', { from: lena });
    await quiescent(t.app);
    expect(await list(page.accountId, `?parentId=${comment.id}`)).to.have.length(1);
    await socialNetwork.removeComment(comment.id);
    await quiescent(t.app);
    expect((await list(page.accountId, `?postId=${page.postId}`)).map((c) => c.text)).to.deep.equal(['Staying.']);
  });

  it('replies, hides, shows and deletes a comment, each as the platform did it', async () => {
    const page = await pageWithPost();
    const { comment } = await socialNetwork.comment(page.postId, 'Is it back?', { from: lena });
    const answered = await reply(page.accountId, { commentId: comment.id, text: 'Yes, since Monday!' }, 'reply-1');
    expect(answered.status, JSON.stringify(answered.body)).to.equal(201);
    expect(answered.body).to.deep.include({
      parentId: comment.id,
      postId: page.postId,
      text: 'Yes, since Monday!',
      capabilities: { canHide: false, canDelete: true, canReply: true, canReplyPrivately: false },
    });
    expect(answered.body.from.id).to.equal(page.pageId);
    const onPost = await t.app.api.post(`/accounts/${page.accountId}/comments`, {
      token: t.owner.key,
      body: { postId: page.postId, text: 'Come by for a taste.' },
    });
    expect(onPost.status).to.equal(201);
    expect(onPost.body.parentId).to.equal(null);

    const hidden = await hide(page.accountId, comment.id, true);
    expect(hidden.status).to.equal(200);
    expect(hidden.body).to.include({ commentId: comment.id, isHidden: true, replyCount: 1 });
    expect((await onPage(page)).find((c) => c.id === comment.id)!.hidden).to.equal(true);
    expect((await hide(page.accountId, comment.id, false)).body.isHidden).to.equal(false);
    expect((await onPage(page)).find((c) => c.id === comment.id)!.hidden).to.equal(false);

    const deleted = await t.app.api.delete(`/accounts/${page.accountId}/comments/${comment.id}`, { token: t.owner.key });
    expect(deleted.status).to.equal(204);
    expect((await onPage(page)).filter((c) => !c.deleted).map((c) => c.message)).to.deep.equal(['Come by for a taste.']);
    expect((await list(page.accountId, `?postId=${page.postId}`)).map((c) => c.text)).to.deep.equal(['Come by for a taste.']);
    const again = await t.app.api.delete(`/accounts/${page.accountId}/comments/${comment.id}`, { token: t.owner.key });
    expect(again.status).to.equal(404);
  });

  it('a reply may carry one uploaded image, which the platform fetches; a video is refused', async () => {
    const page = await pageWithPost();
    const { comment } = await socialNetwork.comment(page.postId, 'Photo of the bag?', { from: lena });
    const photo = await reply(page.accountId, { commentId: comment.id, text: 'Here it is.', mediaId: await uploadPhoto(t.app, t.owner) });
    expect(photo.status, JSON.stringify(photo.body)).to.equal(201);
    expect((await onPage(page)).find((c) => c.id === photo.body.commentId)!.attachmentUrl).to.match(/^http/);
    const video = await reply(page.accountId, { commentId: comment.id, text: 'A clip.', mediaId: await uploadVideo(t.app, t.owner) });
    expect(video.status).to.equal(400);
    expect(video.body.errors[0]).to.include({ path: 'body/mediaId' });
  });

  it("the platform's refusal to hide the page's own comment is a 422 naming why", async () => {
    const page = await pageWithPost();
    const own = await reply(page.accountId, { postId: page.postId, text: 'Ours.' });
    const refused = await hide(page.accountId, own.body.commentId, true);
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('comment_action_refused');
    expect(refused.body.detail).to.match(/cannot hide its own comment/);
  });

  it('a reply whose answer was lost is found on the platform when retried, never written twice', async () => {
    const page = await pageWithPost();
    const { comment } = await socialNetwork.comment(page.postId, 'Hello?', { from: lena });
    await socialNetwork.failComments(page.pageId, [{ kind: 'lost_answer' }]);
    const body = { commentId: comment.id, text: 'Hello to you!' };
    const lost = await reply(page.accountId, body, 'lost-1');
    expect(lost.status).to.equal(502);
    const retried = await reply(page.accountId, body, 'lost-1');
    expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
    const ours = (await onPage(page)).filter((c) => c.fromPage);
    expect(ours.map((c) => c.id)).to.deep.equal([retried.body.commentId]);
  });

  it("a post's id is no comment: deleting or hiding it answers 404 and leaves the post", async () => {
    const page = await pageWithPost();
    expect((await t.app.api.delete(`/accounts/${page.accountId}/comments/${page.postId}`, { token: t.owner.key })).status).to.equal(404);
    expect((await hide(page.accountId, page.postId, true)).status).to.equal(404);
    expect((await socialNetwork.onPlatform(page.pageId)).posts.find((post) => post.id === page.postId)!.deleted).to.equal(false);
  });

  it('replies are refused on a missing comment (404) and, without exactly one target, by validation', async () => {
    const page = await pageWithPost();
    expect((await reply(page.accountId, { commentId: '1_2', text: 'Hi' })).status).to.equal(404);
    const both = await reply(page.accountId, { commentId: '1_2', postId: page.postId, text: 'Hi' });
    expect(both.status).to.equal(400);
    expect(both.body.code).to.equal('validation_failed');
  });

  it('accounts of platforms without comments answer 422 account_platform_unsupported, saying why', async () => {
    const bot = await connectBot(t.app, t.owner);
    const fromBot = await t.app.api.get(`/accounts/${bot.accountId}/comments`, { token: t.owner.key });
    expect(fromBot.status).to.equal(422);
    expect(fromBot.body.code).to.equal('account_platform_unsupported');
    expect(fromBot.body.detail, 'the platforms with comments').to.match(/social_network.+social_threads/);
    const creator = await connectCreator(t.app, t.owner);
    const fromCreator = await t.app.api.post(`/accounts/${creator.accountId}/comments/hide`, {
      token: t.owner.key,
      body: { commentId: '1', hidden: true },
    });
    expect(fromCreator.status).to.equal(422);
    expect(fromCreator.body.detail).to.match(/Business API/);
  });

  itPagesByKeyset(t, 'listComments', async (count) => {
    const page = await pageWithPost();
    await list(page.accountId, `?postId=${page.postId}`);
    const made: string[] = [];
    for (let n = 0; n < count; n += 1) made.push((await socialNetwork.comment(page.postId, `Comment ${n}`, { from: lena })).comment.id);
    await quiescent(t.app);
    return {
      path: `/accounts/${page.accountId}/comments`,
      ids: made.reverse(),
      page: (body) => ({ data: body.data.map((c: Comment) => ({ id: c.commentId })), nextCursor: body.nextCursor }),
    };
  });
});
