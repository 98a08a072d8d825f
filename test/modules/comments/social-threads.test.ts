import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectThreads, type ThreadsPerson } from '../../support/sandbox/social-threads.js';
import { quiescent } from '../../support/wait.js';

describeApi('comments — social_threads replies', (t) => {
  const { socialThreads } = t.sandbox;

  /** A connected profile with one thread made in the app. */
  async function profileWithThread(): Promise<ThreadsPerson & { threadId: string }> {
    const person = await connectThreads(t.app, t.owner);
    const thread = await socialThreads.postInApp(person.userId, 'Fresh roast today.');
    return { ...person, threadId: thread.id };
  }
  const list = async (accountId: string, query: string) => {
    const listed = await t.app.api.get(`/accounts/${accountId}/comments${query}`, { token: t.owner.key });
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    return listed.body.data as Array<Record<string, any>>;
  };
  const reply = (accountId: string, body: Record<string, unknown>, key?: string) =>
    t.app.api.post(`/accounts/${accountId}/comments`, {
      token: t.owner.key,
      body,
      ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
    });
  const hide = (accountId: string, commentId: string, hidden: boolean) =>
    t.app.api.post(`/accounts/${accountId}/comments/hide`, { token: t.owner.key, body: { commentId, hidden } });
  const remove = (accountId: string, commentId: string) =>
    t.app.api.delete(`/accounts/${accountId}/comments/${commentId}`, { token: t.owner.key });

  it("a thread's first list reads its replies at every depth, each saying what the profile may do", async () => {
    const profile = await profileWithThread();
    const question = await socialThreads.reply(profile.threadId, 'Which beans?');
    const answer = await socialThreads.reply(question.id, 'Ethiopian, I think', { username: 'max.k' });
    const listed = await list(profile.accountId, `?postId=${profile.threadId}`);
    expect(listed.map((c) => [c.commentId, c.parentId, c.text])).to.deep.equal([
      [answer.id, question.id, 'Ethiopian, I think'],
      [question.id, null, 'Which beans?'],
    ]);
    expect(listed[1]).to.deep.include({
      platform: 'social_threads',
      postId: profile.threadId,
      from: { id: 'lena.fischer', name: null, username: 'lena.fischer', phone: null },
      capabilities: { canHide: true, canDelete: false, canReply: true, canReplyPrivately: false },
      replyCount: 1,
    });
  });

  it("replies to a reply, hides and shows others' replies, deletes its own; the platform's refusals are 422", async () => {
    const profile = await profileWithThread();
    const question = await socialThreads.reply(profile.threadId, 'Open on Sunday?');
    const answered = await reply(profile.accountId, { commentId: question.id, text: 'Yes, from ten.' }, 'threads-reply-1');
    expect(answered.status, JSON.stringify(answered.body)).to.equal(201);
    expect(answered.body).to.deep.include({
      parentId: question.id,
      postId: profile.threadId,
      text: 'Yes, from ten.',
      capabilities: { canHide: false, canDelete: true, canReply: true, canReplyPrivately: false },
    });
    expect(answered.body.from.id).to.equal(profile.userId);

    expect((await hide(profile.accountId, question.id, true)).body).to.include({ commentId: question.id, isHidden: true });
    expect((await socialThreads.replies(profile.threadId)).find((r) => r.id === question.id)!.hidden).to.equal(true);
    expect((await hide(profile.accountId, question.id, false)).body.isHidden).to.equal(false);

    const hideOwn = await hide(profile.accountId, answered.body.commentId, true);
    expect(hideOwn.status).to.equal(422);
    expect(hideOwn.body.code).to.equal('comment_action_refused');
    const deleteOthers = await remove(profile.accountId, question.id);
    expect(deleteOthers.status).to.equal(422);
    expect(deleteOthers.body.detail).to.match(/Only the author of a reply can delete it/);

    expect((await remove(profile.accountId, answered.body.commentId)).status).to.equal(204);
    expect((await socialThreads.replies(profile.threadId)).find((r) => r.id === answered.body.commentId)!.deleted).to.equal(true);
    expect((await list(profile.accountId, `?postId=${profile.threadId}`)).map((c) => c.commentId)).to.deep.equal([question.id]);
  });

  it("people's replies arrive by the replies webhook and are kept once, however often it is delivered", async () => {
    const { verifyToken } = t.app.services.platforms.get('social_threads')!.webhooks;
    await socialThreads.configureWebhook(`${t.app.url}/webhooks/social_threads`, verifyToken);
    const profile = await profileWithThread();
    expect(await list(profile.accountId, `?postId=${profile.threadId}`)).to.deep.equal([]);
    const question = await socialThreads.reply(profile.threadId, 'Decaf too?', { duplicate: true });
    expect(question.deliveries).to.deep.equal([200, 200]);
    const answer = await socialThreads.reply(question.id, 'Please!', { username: 'max.k' });
    await quiescent(t.app);
    const listed = await list(profile.accountId, `?postId=${profile.threadId}`);
    expect(listed.map((c) => [c.commentId, c.parentId, c.from.username, c.text])).to.deep.equal([
      [answer.id, question.id, 'max.k', 'Please!'],
      [question.id, null, 'lena.fischer', 'Decaf too?'],
    ]);
    expect(listed[1]!.capabilities).to.deep.equal({ canHide: true, canDelete: false, canReply: true, canReplyPrivately: false });
  });

  it('a reply over 500 characters is refused before anything is sent', async () => {
    const profile = await profileWithThread();
    const long = await reply(profile.accountId, { postId: profile.threadId, text: 'a'.repeat(501) });
    expect(long.status).to.equal(400);
    expect(long.body.errors[0]).to.include({ path: 'body/text', code: 'maxLength' });
    expect(await socialThreads.replies(profile.threadId)).to.deep.equal([]);
  });

  it('a reply published whose answer failed is found when retried, never published twice', async () => {
    const profile = await profileWithThread();
    await socialThreads.failNext(profile.userId, [{ kind: 'error_after_publish' }]);
    const body = { postId: profile.threadId, text: 'Thanks, everyone!' };
    expect((await reply(profile.accountId, body, 'threads-lost')).status).to.equal(502);
    const retried = await reply(profile.accountId, body, 'threads-lost');
    expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
    const ours = (await socialThreads.replies(profile.threadId)).filter((r) => r.authorId === profile.userId);
    expect(ours.map((r) => r.id)).to.deep.equal([retried.body.commentId]);
  });
});
