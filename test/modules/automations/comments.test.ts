import { expect } from 'chai';
import type { IncomingComment } from '../../../src/modules/automations/comment-source.js';
import { automateComment } from '../../../src/modules/automations/engine.js';
import { describeApi } from '../../support/harness.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';
import { createAutomation, finishedRuns, runsOf } from './support.js';

// The `comment` kind of incoming event arrives with the comments area; until then its handler is called as the
// webhook processing will call it.
describeApi('automations — comments that trigger them', (t) => {
  it('runs once per new comment by someone else on the chosen posts, and says what it could not do', async () => {
    const page = await connectNewPage(t.app, t.owner);
    await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['automation.triggered'] } });
    const automation = await createAutomation(t, {
      accountIds: [page.accountId],
      trigger: { type: 'comment_received', keywords: ['price'], postIds: ['P1'] },
      actions: [{ type: 'hide_comment' }, { type: 'add_tag', tag: 'asked' }],
    });
    const comment = (overrides: Partial<IncomingComment>): IncomingComment => ({
      kind: 'comment',
      accountId: null,
      platformAccountId: page.pageId,
      platformPostId: 'P1',
      platformCommentId: 'P1_c1',
      parentCommentId: null,
      authorId: '7300000000000001',
      authorName: 'Nora',
      text: 'What is the price?',
      createdAt: new Date(),
      verb: 'add',
      ...overrides,
    });
    await automateComment(t.app.services, 'social_network', comment({ verb: 'edited', platformCommentId: 'P1_edited' }));
    await automateComment(t.app.services, 'social_network', comment({ authorId: page.pageId, platformCommentId: 'P1_own' }));
    await automateComment(t.app.services, 'social_network', comment({ platformPostId: 'P2', platformCommentId: 'P2_c1' }));
    await automateComment(t.app.services, 'social_network', comment({}));
    await automateComment(t.app.services, 'social_network', comment({}));

    const [run] = await finishedRuns(t, automation.id, 1);
    await quiescent(t.app);
    expect(await runsOf(t, automation.id)).to.have.length(1);
    expect(run).to.deep.include({
      status: 'failed',
      trigger: 'comment_received',
      source: { kind: 'comment', id: 'P1_c1', conversationId: null, platformPostId: 'P1' },
      from: { id: '7300000000000001', name: 'Nora' },
      matchedKeyword: 'price',
    });
    expect(run.actions.map((action: { status: string; error: { code: string } }) => [action.status, action.error.code])).to.deep.equal([
      ['failed', 'not_available'],
      ['skipped', 'no_conversation'],
    ]);
    const [event] = await t.inbox.waitFor(1);
    expect(JSON.parse(event!.rawBody).data).to.deep.include({
      trigger: 'comment_received',
      commentId: 'P1_c1',
      platformPostId: 'P1',
      convId: null,
      msgId: null,
      platform: 'social_network',
    });
  });
});
