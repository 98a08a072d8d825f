import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectPages, pendingConnection } from '../../support/sandbox/social-network.js';
import { createAutomation, tagging } from './support.js';

describeApi('automations — creating, reading, changing and deleting them', (t) => {
  it('createAutomation answers the automation with its defaults, stats and no warnings; getAutomation reads it back', async () => {
    const bot = await connectBot(t.app, t.owner);
    const created = await createAutomation(t, {
      name: 'Prices',
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['price', 'how much'] },
      actions: [
        { type: 'reply_message', text: 'Hi {{name}}!' },
        { type: 'add_tag', tag: 'price' },
      ],
    });
    expect(created).to.deep.include({
      profileId: t.owner.profileId,
      name: 'Prices',
      accountIds: [bot.accountId],
      trigger: { type: 'message_received', keywords: ['price', 'how much'], matchType: 'contains', caseSensitive: false, postIds: [] },
      active: true,
      priority: 0,
      stopOnMatch: false,
      cooldownSeconds: 0,
      oncePerPerson: false,
      stats: { triggeredCount: 0, succeededCount: 0, failedCount: 0, lastTriggeredAt: null },
      warnings: [],
    });
    const read = await t.app.api.get(`/automations/${created.id}`, { token: t.owner.key });
    expect(read.body).to.deep.equal(created);
  });

  it('updateAutomation replaces what it is given and keeps the rest; deleteAutomation removes it (404 after)', async () => {
    const bot = await connectBot(t.app, t.owner);
    const created = await createAutomation(t, tagging(bot.accountId, 'first', { keywords: ['hi'] }, { cooldownSeconds: 60 }));
    const updated = await t.app.api.patch(`/automations/${created.id}`, {
      token: t.owner.key,
      body: {
        active: false,
        priority: 7,
        stopOnMatch: true,
        oncePerPerson: true,
        trigger: { type: 'message_received', matchType: 'exact' },
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.deep.include({
      active: false,
      priority: 7,
      stopOnMatch: true,
      oncePerPerson: true,
      cooldownSeconds: 60,
      name: 'Auto',
    });
    expect(updated.body.trigger).to.deep.equal({
      type: 'message_received',
      keywords: [],
      matchType: 'exact',
      caseSensitive: false,
      postIds: [],
    });
    expect(updated.body.actions).to.deep.equal([{ type: 'add_tag', tag: 'first' }]);
    expect((await t.app.api.delete(`/automations/${created.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.get(`/automations/${created.id}`, { token: t.owner.key })).status).to.equal(404);
    expect((await t.app.api.delete(`/automations/${created.id}`, { token: t.owner.key })).status).to.equal(404);
  });

  it('refuses actions that do not fit the trigger, post ids on messages and invalid patterns (400)', async () => {
    const bot = await connectBot(t.app, t.owner);
    const refused = async (body: Record<string, unknown>, path: string) => {
      const answer = await t.app.api.post('/automations', {
        token: t.owner.key,
        body: { profileId: t.owner.profileId, name: 'x', ...body },
      });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
      expect(answer.body.code).to.equal('validation_failed');
      expect(answer.body.errors.map((e: { path: string }) => e.path)).to.include(path);
    };
    await refused(
      { accountIds: [bot.accountId], trigger: { type: 'message_received' }, actions: [{ type: 'hide_comment' }] },
      'body/actions/0/type',
    );
    await refused(tagging(bot.accountId, 'x', { postIds: ['1_2'] }), 'body/trigger/postIds');
    await refused(tagging(bot.accountId, 'x', { matchType: 'regex', keywords: ['fine', '(unclosed'] }), 'body/trigger/keywords/1');
  });

  it('refuses a regex bomb with 422 regex_unsafe naming the pattern and why, and saves nothing', async () => {
    const bot = await connectBot(t.app, t.owner);
    const bomb = '^(a+)+$';
    const answer = await t.app.api.post('/automations', {
      token: t.owner.key,
      body: {
        profileId: t.owner.profileId,
        name: 'bomb',
        ...tagging(bot.accountId, 'x', { matchType: 'regex', keywords: ['price', bomb] }),
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(422);
    expect(answer.body.code).to.equal('regex_unsafe');
    expect(answer.body.detail).to.contain(JSON.stringify(bomb)).and.to.contain('backtrack catastrophically');
    expect(answer.body.errors[0].path).to.equal('body/trigger/keywords/1');
    const created = await createAutomation(t, tagging(bot.accountId, 'x', { matchType: 'regex', keywords: ['pri[cz]e\\b'] }));
    const patched = await t.app.api.patch(`/automations/${created.id}`, {
      token: t.owner.key,
      body: { trigger: { type: 'message_received', matchType: 'regex', keywords: ['(x+x+)+y'] } },
    });
    expect([patched.status, patched.body.code]).to.deep.equal([422, 'regex_unsafe']);
    const listed = await t.app.api.get('/automations', { token: t.owner.key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).to.deep.equal([created.id]);
  });

  it('refuses accounts of another profile (422), of another owner (404), and platforms without the trigger (422)', async () => {
    const bot = await connectBot(t.app, t.owner);
    const profile = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Second' } });
    const other = await t.app.api.post('/automations', {
      token: t.owner.key,
      body: { profileId: profile.body.id, name: 'x', ...tagging(bot.accountId, 'x') },
    });
    expect([other.status, other.body.code]).to.deep.equal([422, 'account_not_in_profile']);
    const stranger = await newOwner(t.app.api);
    const foreign = await t.app.api.post('/automations', {
      token: stranger.key,
      body: { profileId: stranger.profileId, name: 'x', ...tagging(bot.accountId, 'x') },
    });
    expect(foreign.status).to.equal(404);
    const comments = await t.app.api.post('/automations', {
      token: t.owner.key,
      body: {
        profileId: t.owner.profileId,
        name: 'x',
        accountIds: [bot.accountId],
        trigger: { type: 'comment_received' },
        actions: [{ type: 'hide_comment' }],
      },
    });
    expect([comments.status, comments.body.code]).to.deep.equal([422, 'account_platform_unsupported']);
    expect(comments.body.detail).to.contain('botchat');
  });

  it('says when the source cannot fire: a bot whose webhook was removed at the platform', async () => {
    const bot = await connectBot(t.app, t.owner);
    const removed = await fetch(`${t.app.services.sandboxUrl}/botchat/bot${bot.token}/deleteWebhook`, { method: 'POST' });
    expect(removed.status).to.equal(200);
    const created = await createAutomation(t, tagging(bot.accountId, 'x'));
    expect(created.warnings).to.have.length(1);
    expect(created.warnings[0]).to.include({ accountId: bot.accountId, code: 'webhook_subscription_missing', scope: null });
    expect(created.warnings[0].message).to.contain('no webhook');
  });

  /** A page account connected by a person who declined these permissions. */
  const pageWithout = async (declineScopes: string[]): Promise<string> => {
    const pat = await t.sandbox.socialNetwork.newPerson({ pages: 1, adAccounts: 0, declineScopes });
    const connected = await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), [pat.pageIds[0]!]);
    expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
    return connected.body.data[0].id;
  };

  it('says when an action cannot be done: a page connected without the permission to answer messages', async () => {
    const accountId = await pageWithout(['pages_messaging']);
    const created = await createAutomation(t, {
      accountIds: [accountId],
      trigger: { type: 'message_received' },
      actions: [{ type: 'reply_message', text: 'Hello!' }],
    });
    expect(created.warnings).to.deep.equal([
      {
        accountId,
        code: 'permission_missing',
        message: 'The account was connected without pages_messaging; connect it again and grant it.',
        scope: 'pages_messaging',
      },
    ]);
    expect((await t.app.api.get(`/automations/${created.id}`, { token: t.owner.key })).body.warnings).to.deep.equal(created.warnings);
  });

  it('says what a comment automation lacks: a page connected without reading its comments nor managing them', async () => {
    const accountId = await pageWithout(['pages_read_user_engagement', 'pages_manage_engagement']);
    const created = await createAutomation(t, {
      accountIds: [accountId],
      trigger: { type: 'comment_received' },
      actions: [{ type: 'send_private_reply', text: 'Sent you the prices' }, { type: 'hide_comment' }],
    });
    expect(created.warnings.map((warning: { code: string; scope: string }) => [warning.code, warning.scope])).to.deep.equal([
      ['permission_missing', 'pages_read_user_engagement'],
      ['permission_missing', 'pages_manage_engagement'],
    ]);
  });

  it('a page connected with every permission granted: no warning, and the account lists what was granted, not its tasks', async () => {
    const pat = await t.sandbox.socialNetwork.newPerson({ pages: 1, adAccounts: 0 });
    const connected = await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), [pat.pageIds[0]!]);
    const page = connected.body.data[0];
    expect(page.scopes).to.include.members(['pages_messaging', 'pages_manage_engagement', 'pages_read_user_engagement', 'read_insights']);
    expect(page.scopes).to.not.include('MODERATE');
    const messages = await createAutomation(t, {
      accountIds: [page.id],
      trigger: { type: 'message_received' },
      actions: [{ type: 'reply_message', text: 'Hello!' }],
    });
    expect(messages.warnings).to.deep.equal([]);
    const comments = await createAutomation(t, {
      accountIds: [page.id],
      trigger: { type: 'comment_received' },
      actions: [{ type: 'reply_comment', text: 'Thanks!' }],
    });
    expect(comments.warnings).to.deep.equal([]);
  });

  it('filters the list by profile, account, trigger type and state; another owner sees none', async () => {
    const bot = await connectBot(t.app, t.owner);
    const active = await createAutomation(t, tagging(bot.accountId, 'a'));
    const paused = await createAutomation(t, tagging(bot.accountId, 'b', {}, { active: false }));
    const ids = async (query: string, token = t.owner.key) =>
      (await t.app.api.get(`/automations?${query}`, { token })).body.data.map((a: { id: string }) => a.id);
    expect(await ids('')).to.deep.equal([paused.id, active.id]);
    expect(await ids('active=true')).to.deep.equal([active.id]);
    expect(await ids(`accountId=${bot.accountId}&triggerType=message_received`)).to.deep.equal([paused.id, active.id]);
    expect(await ids('triggerType=comment_received')).to.deep.equal([]);
    expect(await ids(`profileId=${t.owner.profileId}`)).to.deep.equal([paused.id, active.id]);
    expect(await ids('', (await newOwner(t.app.api)).key)).to.deep.equal([]);
  });

  itPagesByKeyset(t, 'listAutomations', async (count) => {
    const bot = await connectBot(t.app, t.owner);
    const made: string[] = [];
    for (let n = 0; n < count; n += 1) made.push((await createAutomation(t, tagging(bot.accountId, `t${n}`))).id);
    return { path: '/automations', ids: made.reverse(), filter: { query: 'active=false', ids: [] } };
  });
});
