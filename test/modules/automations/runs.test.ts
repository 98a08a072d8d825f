import { expect } from 'chai';
import { render } from '../../../src/modules/automations/template.js';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent } from '../../support/wait.js';
import { createAutomation, finishedRuns, tagging } from './support.js';

describeApi('automations — the run log, the counts and automation.triggered', (t) => {
  const { botchat } = t.sandbox;
  const lena = { id: 501, firstName: 'Lena' };

  it("logs each run with its source, keyword and each action's outcome, counts it, and emits automation.triggered once", async () => {
    const bot = await connectBot(t.app, t.owner);
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['automation.triggered'] },
    });
    expect(hook.status).to.equal(201);
    const automation = await createAutomation(t, {
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['price'] },
      actions: [
        { type: 'add_tag', tag: 'lead' },
        { type: 'reply_message', text: 'Hi {{name}}, about the {{keyword}}…' },
      ],
    });
    await botchat.sendMessage(bot.token, 'What is the price?', lena);
    const [run] = await finishedRuns(t, automation.id, 1);
    const [conversation] = (await t.app.api.get(`/accounts/${bot.accountId}/conversations`, { token: t.owner.key })).body.data;
    expect(conversation.tags).to.deep.equal(['lead']);
    const messages = (await t.app.api.get(`/accounts/${bot.accountId}/conversations/${conversation.id}`, { token: t.owner.key })).body
      .messages.data;
    const message = messages.find((m: { direction: string }) => m.direction === 'in');
    expect(run).to.deep.include({
      automationId: automation.id,
      accountId: bot.accountId,
      status: 'succeeded',
      trigger: 'message_received',
      source: { kind: 'message', id: message.id, conversationId: conversation.id, platformPostId: null },
      from: { id: '501', name: 'Lena' },
      text: 'What is the price?',
      matchedKeyword: 'price',
    });
    expect(run.actions.map((action: { type: string; status: string }) => [action.type, action.status])).to.deep.equal([
      ['add_tag', 'succeeded'],
      ['reply_message', 'succeeded'],
    ]);
    expect(run.finishedAt).to.be.a('string');
    expect((await botchat.onPlatform(bot.token)).map((sent) => [sent.chatId, sent.text])).to.deep.equal([
      [501, 'Hi Lena, about the price…'],
    ]);

    const read = await t.app.api.get(`/automations/${automation.id}`, { token: t.owner.key });
    expect(read.body.stats).to.deep.include({ triggeredCount: 1, succeededCount: 1, failedCount: 0 });
    expect(read.body.stats.lastTriggeredAt).to.equal(run.createdAt);

    await t.inbox.waitFor(1);
    await quiescent(t.app);
    const events = t.inbox.events();
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ event: 'automation.triggered', profileId: t.owner.profileId });
    expect(events[0]!.data).to.deep.equal({
      automationId: automation.id,
      runId: run.id,
      accountId: bot.accountId,
      platform: 'botchat',
      trigger: 'message_received',
      from: '501',
      fromName: 'Lena',
      text: 'What is the price?',
      matchedKeyword: 'price',
      convId: conversation.id,
      msgId: message.id,
      commentId: null,
      platformPostId: null,
      actions: [
        { type: 'add_tag', status: 'succeeded', error: null },
        { type: 'reply_message', status: 'succeeded', error: null },
      ],
    });
  });

  it('hands a run the intake starts to the worker of its process, leased as it is inserted: no claim takes it, and the reply is sent once', async () => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, {
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['hi'] },
      actions: [{ type: 'reply_message', text: 'Hi {{name}}!' }],
    });
    // The runs each claim of the worker took (its poll claims nothing).
    const claimed: unknown[] = [];
    const seen = (response: unknown, query: { sql: string }) => {
      if (/^update "automation_runs" set "locked_until" = .*"attempts" = attempts \+ 1/.test(query.sql))
        claimed.push(...(response as unknown[]));
    };
    t.app.services.db.on('query-response', seen);
    try {
      await botchat.sendMessage(bot.token, 'hi', lena);
      const [run] = await finishedRuns(t, automation.id, 1);
      expect(run.status).to.equal('succeeded');
    } finally {
      t.app.services.db.off('query-response', seen);
    }
    expect(claimed).to.deep.equal([]);
    expect((await t.app.services.db('automationRuns').where({ automationId: automation.id }).first()).attempts).to.equal(1);
    expect((await botchat.onPlatform(bot.token)).map((sent) => sent.text)).to.deep.equal(['Hi Lena!']);
  });

  it("records the platform's refusal on the run and counts it failed: the person blocked the bot", async () => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, {
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['price'] },
      actions: [{ type: 'reply_message', text: 'Prices inside.' }],
    });
    await botchat.block(bot.token, lena.id);
    await botchat.sendMessage(bot.token, 'price?', lena);
    const [run] = await finishedRuns(t, automation.id, 1);
    expect(run.status).to.equal('failed');
    expect(run.actions[0]).to.deep.include({ type: 'reply_message', status: 'failed' });
    expect(run.actions[0].error.code).to.equal('recipient_blocked');
    expect(await botchat.onPlatform(bot.token)).to.deep.equal([]);
    const read = await t.app.api.get(`/automations/${automation.id}`, { token: t.owner.key });
    expect(read.body.stats).to.deep.include({ triggeredCount: 1, succeededCount: 0, failedCount: 1 });
  });

  it('waits out a platform that throttles the account, then sends the reply once', async () => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, {
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['price'] },
      actions: [{ type: 'reply_message', text: 'Prices inside.' }],
    });
    await botchat.failNext(bot.token, [{ kind: 'rate_limited', retryAfter: 1 }]);
    await botchat.sendMessage(bot.token, 'price?', lena);
    const [run] = await finishedRuns(t, automation.id, 1);
    expect(run.status).to.equal('succeeded');
    expect(run.actions[0]).to.deep.include({ type: 'reply_message', status: 'succeeded', error: null });
    expect((await botchat.onPlatform(bot.token)).map((sent) => sent.text)).to.deep.equal(['Prices inside.']);
    const [stored] = await t.app.services.db('automationRuns').where({ automationId: automation.id });
    expect(stored.attempts).to.equal(2);
    expect(stored.finishedAt.getTime() - stored.createdAt.getTime()).to.be.at.least(900);
  });

  it('fails a reply the platform still throttles after five tries', async () => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, {
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['price'] },
      actions: [{ type: 'reply_message', text: 'Prices inside.' }],
    });
    await botchat.failNext(
      bot.token,
      Array.from({ length: 5 }, () => ({ kind: 'rate_limited' as const, retryAfter: 1 })),
    );
    await botchat.sendMessage(bot.token, 'price?', lena);
    const [run] = await finishedRuns(t, automation.id, 1);
    expect(run.status).to.equal('failed');
    expect(run.actions[0].error.code).to.equal('platform_rate_limited');
    expect(await botchat.onPlatform(bot.token)).to.deep.equal([]);
  });

  it('tags a conversation once, whatever the case of a tag it has, and fails a tag that would not fit in a full conversation', async () => {
    const bot = await connectBot(t.app, t.owner);
    const upper = await createAutomation(t, tagging(bot.accountId, 'VIP', { keywords: ['vip'] }));
    const lower = await createAutomation(t, tagging(bot.accountId, 'vip', { keywords: ['vip'] }));
    await botchat.sendMessage(bot.token, 'vip please', lena);
    const [first] = await Promise.all([finishedRuns(t, upper.id, 1), finishedRuns(t, lower.id, 1)]);
    const conversationId = first[0].source.conversationId;
    const tagsNow = async () =>
      ((await t.app.services.db('conversations').where({ id: conversationId }).first()) as { tags: string[] }).tags;
    // Both runs tagged the conversation at the same moment: one of them added the tag, the other found it there.
    expect((await tagsNow()).map((tag) => tag.toLowerCase())).to.deep.equal(['vip']);

    const full = [...(await tagsNow()), ...Array.from({ length: 19 }, (_, n) => `t${n}`)];
    await t.app.services.db('conversations').where({ id: conversationId }).update({ tags: full });
    const more = await createAutomation(t, tagging(bot.accountId, 'more', { keywords: ['more'] }));
    await botchat.sendMessage(bot.token, 'vip more', lena);
    const [[vip], [rejected]] = await Promise.all([finishedRuns(t, upper.id, 2), finishedRuns(t, more.id, 1)]);
    expect(vip.status).to.equal('succeeded');
    expect(rejected.status).to.equal('failed');
    expect(rejected.actions[0]).to.deep.include({ type: 'add_tag', status: 'failed' });
    expect(rejected.actions[0].error.code).to.equal('tag_limit_reached');
    expect(await tagsNow()).to.deep.equal(full);
    const read = await t.app.api.get(`/automations/${more.id}`, { token: t.owner.key });
    expect(read.body.stats).to.deep.include({ triggeredCount: 1, succeededCount: 0, failedCount: 1 });
  });

  it('counts succeeded runs and filters the log by status', async () => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, tagging(bot.accountId, 'seen'));
    await botchat.sendMessage(bot.token, 'one', lena);
    await botchat.sendMessage(bot.token, 'two', lena);
    await finishedRuns(t, automation.id, 2);
    const read = await t.app.api.get(`/automations/${automation.id}`, { token: t.owner.key });
    expect(read.body.stats).to.deep.include({ triggeredCount: 2, succeededCount: 2, failedCount: 0 });
    const failed = await t.app.api.get(`/automations/${automation.id}/runs?status=failed`, { token: t.owner.key });
    expect(failed.body.data).to.deep.equal([]);
    expect((await t.app.api.get(`/automations/auto_01jd3y6w7q5v8k0n2b4c6e8g1h/runs`, { token: t.owner.key })).status).to.equal(404);
  });

  itPagesByKeyset(t, 'listAutomationRuns', async (count) => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, tagging(bot.accountId, 'seen'));
    for (let n = 0; n < count; n += 1) await botchat.sendMessage(bot.token, `message ${n}`, { id: 700 + n, firstName: `P${n}` });
    const runs = await finishedRuns(t, automation.id, count);
    expect(runs.map((run) => run.text)).to.deep.equal(Array.from({ length: count }, (_, n) => `message ${count - 1 - n}`));
    return {
      path: `/automations/${automation.id}/runs`,
      ids: runs.map((run) => run.id),
      filter: { query: 'status=succeeded', ids: runs.map((run) => run.id) },
    };
  });

  it('replaces template variables once, as plain text, and leaves unknown ones as written', () => {
    const values = { name: '{{text}}', keyword: 'price', text: 'What is the {{name}}?' };
    expect(render('Hi {{name}}, the {{ keyword }}: "{{text}}" {{other}}', values)).to.equal(
      'Hi {{text}}, the price: "What is the {{name}}?" {{other}}',
    );
    expect(render('{{text}}', { ...values, text: 'x'.repeat(5000) })).to.have.length(1000);
  });
});
