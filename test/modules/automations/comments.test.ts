import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { type ConnectedPage, connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';
import { createAutomation, finishedRuns, runsOf } from './support.js';

describeApi('automations — comments that trigger them, acting on the platform', (t) => {
  const { socialNetwork, messenger } = t.sandbox;
  const nora = { id: '7300000000000001', name: 'Nora Lind' };

  async function pageWithPost(): Promise<ConnectedPage & { postId: string }> {
    const page = await connectNewPage(t.app, t.owner);
    const post = await socialNetwork.postInApp(page.pageId, 'The autumn menu is out.');
    return { ...page, postId: post.id };
  }

  it('a comment asking the price gets one private message and one public reply, however often its webhook comes', async () => {
    const page = await pageWithPost();
    await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['automation.triggered'] } });
    const automation = await createAutomation(t, {
      accountIds: [page.accountId],
      trigger: { type: 'comment_received', keywords: ['price'], postIds: [page.postId] },
      actions: [
        { type: 'send_private_reply', text: 'Hi {{name}}, the prices are on their way.' },
        { type: 'reply_comment', text: 'Sent you a message, {{name}}!' },
      ],
    });
    await socialNetwork.failComments(page.pageId, [{ kind: 'duplicate_webhooks' }]);
    const { comment } = await socialNetwork.comment(page.postId, 'What is the price?', { from: nora });

    const [run] = await finishedRuns(t, automation.id, 1);
    await quiescent(t.app);
    expect(run).to.deep.include({ status: 'succeeded', trigger: 'comment_received', matchedKeyword: 'price' });
    expect(run.source).to.deep.include({ kind: 'comment', id: comment.id, platformPostId: page.postId });
    expect(run.actions.map((action: { status: string }) => action.status)).to.deep.equal(['succeeded', 'succeeded']);

    const privateReplies = (await messenger.onPlatform(page.pageId)).filter((sent) => sent.commentId === comment.id);
    expect(privateReplies.map((sent) => sent.text)).to.deep.equal(['Hi Nora Lind, the prices are on their way.']);
    const onPage = (await socialNetwork.onPlatform(page.pageId)).posts.find((post) => post.id === page.postId)!.comments;
    const replies = onPage.filter((c) => c.parentId === comment.id);
    expect(replies.map((c) => [c.fromPage, c.message])).to.deep.equal([[true, 'Sent you a message, Nora Lind!']]);

    // The page's own reply came back through the feed webhook too: it triggers nothing.
    expect(await runsOf(t, automation.id)).to.have.length(1);
    const [event, ...more] = await t.inbox.waitFor(1);
    expect(more).to.deep.equal([]);
    expect(JSON.parse(event!.rawBody).data).to.deep.include({
      trigger: 'comment_received',
      commentId: comment.id,
      platform: 'social_network',
    });
  });

  it('hides a comment with a blocked word, and leaves comments on other posts and the page’s own alone', async () => {
    const page = await pageWithPost();
    const other = await socialNetwork.postInApp(page.pageId, 'Opening hours change on Monday.');
    const automation = await createAutomation(t, {
      accountIds: [page.accountId],
      trigger: { type: 'comment_received', keywords: ['spam'], postIds: [page.postId] },
      actions: [{ type: 'hide_comment' }],
    });
    const { comment } = await socialNetwork.comment(page.postId, 'Buy SPAM here', { from: nora });
    await socialNetwork.comment(other.id, 'spam on another post', { from: nora });

    const [run] = await finishedRuns(t, automation.id, 1);
    await quiescent(t.app);
    expect(run.status).to.equal('succeeded');
    expect(await runsOf(t, automation.id)).to.have.length(1);
    const hidden = (await socialNetwork.onPlatform(page.pageId)).posts
      .flatMap((post) => post.comments)
      .filter((c) => c.hidden)
      .map((c) => c.id);
    expect(hidden).to.deep.equal([comment.id]);
  });

  it('answers each comment privately at most once: the automation answers a new comment, a second reply by hand to an answered one is refused', async () => {
    const page = await pageWithPost();
    const { comment } = await socialNetwork.comment(page.postId, 'price please', { from: nora });
    await quiescent(t.app);
    const answered = await t.app.api.post(`/accounts/${page.accountId}/messages`, {
      token: t.owner.key,
      body: { commentId: comment.id, text: 'Answered by hand first.' },
    });
    expect(answered.status, JSON.stringify(answered.body)).to.equal(201);
    const automation = await createAutomation(t, {
      accountIds: [page.accountId],
      trigger: { type: 'comment_received', keywords: ['price'] },
      actions: [{ type: 'send_private_reply', text: 'Prices inside.' }],
    });
    const second = await socialNetwork.comment(page.postId, 'price again?', { from: nora });
    const [run] = await finishedRuns(t, automation.id, 1);
    expect(run.source.id).to.equal(second.comment.id);
    expect(run.status).to.equal('succeeded');
    // The first comment was answered privately already: the platform refuses a second one, and says so.
    const refused = await t.app.api.post(`/accounts/${page.accountId}/messages`, {
      token: t.owner.key,
      body: { commentId: comment.id, text: 'Again.' },
    });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('private_reply_already_sent');
    const sent = (await messenger.onPlatform(page.pageId)).filter((s) => s.commentId !== null).map((s) => [s.commentId, s.text]);
    expect(sent).to.deep.equal([
      [comment.id, 'Answered by hand first.'],
      [second.comment.id, 'Prices inside.'],
    ]);
  });
});
