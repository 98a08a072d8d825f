import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { settled, waitForPost } from '../publishing/posts-support.js';
import { quiescent, until } from '../../support/wait.js';

describeApi('deleteProfile — DELETE /profiles/{id}', (t) => {
  const webhookUrl = async (botToken: string) =>
    ((await (await fetch(`${t.app.services.sandboxUrl}/botchat/bot${botToken}/getWebhookInfo`)).json()) as { result: { url: string } })
      .result.url;
  const hook = async (key: string, path: string) => {
    const created = await t.app.api.post('/hooks', {
      token: key,
      body: { url: `${t.inbox.url}${path}`, events: ['account.disconnected'] },
    });
    expect(created.status).to.equal(201);
    return created.body.id as string;
  };
  const inFuture = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
  const botPost = (accountId: string, text: string) => ({
    text,
    accountIds: [accountId],
    platformOptions: { botchat: { chatIds: ['7'] } },
  });

  it('disconnects its accounts, cancels its scheduled and queued posts, deletes its slots, releases its hooks and keys; other profiles keep theirs', async () => {
    const profileA = t.owner.profileId;
    const profileB = (await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Kept' } })).body.id as string;
    const botA = await connectBot(t.app, t.owner, 'Doomed');
    const botB = await connectBot(t.app, { ...t.owner, profileId: profileB }, 'Kept');
    const keyA = await restrictedKey(t.app.api, t.owner, [profileA]);
    const keyAB = await restrictedKey(t.app.api, t.owner, [profileA, profileB]);
    await hook(t.owner.key, '/all');
    const hookA = await hook(keyA, '/a');
    const hookAB = await hook(keyAB, '/ab');
    const slotA = await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: profileA, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' },
    });
    const slotB = await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: profileB, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' },
    });
    const scheduled = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { ...botPost(botA.accountId, 'Tomorrow'), scheduledAt: inFuture(24) },
    });
    const queued = await t.app.api.post('/queue', { token: t.owner.key, body: { post: botPost(botA.accountId, 'Queued') } });
    const keptPost = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { ...botPost(botB.accountId, 'Mine'), scheduledAt: inFuture(24) },
    });
    expect([scheduled.status, queued.status, keptPost.status]).to.deep.equal([201, 201, 201]);

    const deleted = await t.app.api.delete(`/profiles/${profileA}`, { token: t.owner.key });
    expect(deleted.status).to.equal(204);
    expect((await t.app.api.delete(`/profiles/${profileA}`, { token: t.owner.key })).status, 'a second DELETE').to.equal(204);
    expect((await t.app.api.get(`/profiles/${profileA}`, { token: t.owner.key })).status).to.equal(404);
    expect((await t.app.api.get('/profiles', { token: t.owner.key })).body.data.map((p: { id: string }) => p.id)).to.deep.equal([profileB]);
    expect((await t.app.api.get(`/accounts?profileId=${profileA}`, { token: t.owner.key })).status).to.equal(404);

    // Accounts: disconnected, records kept; the other profile's untouched.
    const accountA = await t.app.api.get(`/accounts/${botA.accountId}`, { token: t.owner.key });
    expect(accountA.body).to.include({ status: 'disconnected', statusReason: 'disconnected_by_user' });
    expect((await t.app.api.get(`/accounts/${botB.accountId}`, { token: t.owner.key })).body.status).to.equal('connected');

    // Posts: cancelled, the other profile's still scheduled; slots: the profile's gone.
    for (const post of [scheduled, queued]) {
      const read = await t.app.api.get(`/posts/${post.body.id ?? post.body.postId}`, { token: t.owner.key });
      expect(read.body.status).to.equal('cancelled');
      expect(read.body.targets.map((target: { status: string }) => target.status)).to.deep.equal(['cancelled']);
    }
    expect((await t.app.api.get(`/posts/${keptPost.body.id}`, { token: t.owner.key })).body.status).to.equal('scheduled');
    const slots = await t.app.api.get('/queue/slots', { token: t.owner.key });
    expect(slots.body.data.map((slot: { id: string }) => slot.id)).to.deep.equal([slotB.body.id]);
    expect((await t.app.api.get('/queue', { token: t.owner.key })).body.data).to.deep.equal([]);
    expect(slotA.status).to.equal(201);

    // Keys: the one of this profile alone is revoked; the other keeps its other profile.
    const revoked = await t.app.api.get('/profiles', { token: keyA });
    expect([revoked.status, revoked.body.code]).to.deep.equal([401, 'token_revoked']);
    expect((await t.app.api.get('/profiles', { token: keyAB })).body.data.map((p: { id: string }) => p.id)).to.deep.equal([profileB]);

    // Hooks: the one of this profile alone is deleted; the other keeps its other profile; both others heard the deletion.
    const hooks = await t.app.api.get('/hooks', { token: t.owner.key });
    expect(hooks.body.data.map((h: { id: string }) => h.id)).to.not.include(hookA);
    expect(hooks.body.data.find((h: { id: string }) => h.id === hookAB).profileIds).to.deep.equal([profileB]);
    await t.inbox.waitFor(2);
    await quiescent(t.app);
    const heard = t.inbox.received.map((request) => [request.path, JSON.parse(request.rawBody).data.accountId]).sort();
    expect(heard).to.deep.equal([
      ['/ab', botA.accountId],
      ['/all', botA.accountId],
    ]);

    // The platform: the bot's webhook removed after the commit; the other bot's stays.
    expect(await webhookUrl(botA.token)).to.equal('');
    expect(await webhookUrl(botB.token)).to.equal(`${t.app.services.config.publicUrl}/webhooks/botchat`);
    expect(await t.app.services.db('accountRevocations')).to.deep.equal([]);
  });

  it('a key restricted to other profiles gets 403 and changes nothing; another owner gets 404', async () => {
    const other = (await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Other' } })).body.id as string;
    const bot = await connectBot(t.app, t.owner);
    const keyOther = await restrictedKey(t.app.api, t.owner, [other]);
    const refused = await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: keyOther });
    expect([refused.status, refused.body.code]).to.deep.equal([403, 'profile_out_of_scope']);
    const stranger = await newOwner(t.app.api);
    expect((await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: stranger.key })).status).to.equal(404);
    expect((await t.app.api.get(`/profiles/${t.owner.profileId}`, { token: t.owner.key })).status).to.equal(200);
    expect((await t.app.api.get(`/accounts/${bot.accountId}`, { token: t.owner.key })).body.status).to.equal('connected');
    // A key restricted to the profile itself may delete it, and loses it with it.
    const own = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    expect((await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: own })).status).to.equal(204);
    expect((await t.app.api.get('/profiles', { token: own })).status).to.equal(401);
  });
});

describeApi('deleteProfile — against the workers: a post being published, a crash after the commit', (t) => {
  const { botchat } = t.sandbox;
  const webhookUrl = async (botToken: string) =>
    ((await (await fetch(`${t.app.services.sandboxUrl}/botchat/bot${botToken}/getWebhookInfo`)).json()) as { result: { url: string } })
      .result.url;
  const inFuture = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
  const botPost = (accountId: string, text: string) => ({
    text,
    accountIds: [accountId],
    platformOptions: { botchat: { chatIds: ['7'] } },
  });
  let revocations: CrashableWorker;
  let publishing: CrashableWorker;
  before(async () => {
    revocations = await CrashableWorker.standIn(t.app, 'account-revocations');
    publishing = await CrashableWorker.standIn(t.app, 'publishing');
  });
  after(async () => {
    await revocations.stop();
    await publishing.stop();
  });

  it('while one of its posts is being published: 409 post_status_conflict and nothing changed; once it has settled, 204', async () => {
    const bot = await connectBot(t.app, t.owner);
    const slot = await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, dayOfWeek: 'friday', time: '10:00', timezone: 'UTC' },
    });
    const later = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { ...botPost(bot.accountId, 'Later'), scheduledAt: inFuture(24) },
    });
    await botchat.failNext(bot.token, [{ kind: 'hang_after_send' }]);
    const now = await t.app.api.post('/posts', { token: t.owner.key, body: { ...botPost(bot.accountId, 'Now'), publishNow: true } });
    expect(now.status).to.equal(202);
    // The message is at the platform and its answer never comes back: the post is being published.
    await until(async () => (await botchat.onPlatform(bot.token)).length, { done: (n) => n === 1, what: 'the message at the platform' });

    const refused = await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: t.owner.key });
    expect([refused.status, refused.body.code]).to.deep.equal([409, 'post_status_conflict']);
    expect((await t.app.api.get(`/profiles/${t.owner.profileId}`, { token: t.owner.key })).status).to.equal(200);
    expect((await t.app.api.get(`/accounts/${bot.accountId}`, { token: t.owner.key })).body.status).to.equal('connected');
    expect((await t.app.api.get(`/posts/${later.body.id}`, { token: t.owner.key })).body.status).to.equal('scheduled');
    expect((await t.app.api.get(`/posts/${now.body.id}`, { token: t.owner.key })).body.status).to.equal('processing');
    expect((await t.app.api.get('/queue/slots', { token: t.owner.key })).body.data.map((s: { id: string }) => s.id)).to.deep.equal([
      slot.body.id,
    ]);
    expect(await webhookUrl(bot.token)).to.not.equal('');
    expect(await t.app.services.db('events').where({ profileId: t.owner.profileId, name: 'account.disconnected' })).to.deep.equal([]);

    // The worker that holds the call dies; the next one settles the post (unknown: the platform cannot be asked).
    await publishing.crashAndReplace();
    await waitForPost(t.app, t.owner, now.body.id, settled);
    expect((await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.get(`/posts/${later.body.id}`, { token: t.owner.key })).body.status).to.equal('cancelled');
  });

  it('a revocation worker that is down when the profile is deleted loses nothing: the next one removes the webhook', async () => {
    const bot = await connectBot(t.app, t.owner);
    await revocations.crash();
    expect((await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: t.owner.key })).status).to.equal(204);
    expect(await webhookUrl(bot.token), 'nothing is called before a worker takes it').to.not.equal('');
    const owed = (await t.app.services.db('accountRevocations').select('accountId')) as Array<{ accountId: string }>;
    expect(owed.map((row) => row.accountId)).to.deep.equal([bot.accountId]);
    await revocations.replace();
    await until(() => webhookUrl(bot.token), { done: (url) => url === '', what: "the bot's webhook removed" });
    await quiescent(t.app);
    expect(await t.app.services.db('accountRevocations')).to.deep.equal([]);
  });
});
