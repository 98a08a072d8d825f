import { expect } from 'chai';
import { refreshExpiringTokens } from '../../../src/modules/accounts/refresh.js';
import { DEMO_THREADS_USER } from '../../../src/sandbox/social-threads/demo.js';
import { describeApi } from '../../support/harness.js';
import { consent, returnToService, startConnection } from '../../support/sandbox/oauth.js';
import { assertSigned } from '../../support/webhooks.js';

describeApi("social_threads — the user's own profile by OAuth, long-lived tokens refreshed", (t) => {
  const { socialThreads } = t.sandbox;
  beforeEach(() => socialThreads.configure({ longLivedTtlSeconds: 5_184_000, minRefreshAgeSeconds: 86_400 }));

  async function dance(decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
    const authorize = await startConnection(t.app, t.owner, 'social_threads');
    expect(authorize.searchParams.get('scope')).to.equal(
      'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_manage_insights,threads_delete',
    );
    expect(authorize.searchParams.has('code_challenge')).to.equal(false);
    const callback = await returnToService(t.app, await consent(authorize, decision));
    expect(callback.status).to.equal(302);
    return new URL(callback.headers.get('location')!);
  }

  it('runs the whole dance: code exchange, long-lived token (60 days), one account of kind user, account.connected, about', async () => {
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['account.connected'] } });
    const outcome = await dance();
    expect(outcome.searchParams.get('status')).to.equal('connected');
    const [accountId] = outcome.searchParams.get('accountIds')!.split(',');
    const account = await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key });
    expect(account.body).to.include({
      platform: 'social_threads',
      kind: 'user',
      platformAccountId: DEMO_THREADS_USER.id,
      username: 'acme.coffee',
      name: 'Acme Coffee',
      status: 'connected',
    });
    expect(account.body.avatarUrl).to.match(/^https:\/\//);
    expect(Date.parse(account.body.tokenExpiresAt) - Date.now()).to.be.above(59 * 24 * 3600 * 1000);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId, platform: 'social_threads', status: 'connected' });
    const about = await t.app.api.get(`/accounts/${accountId}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({
      username: 'acme.coffee',
      bio: 'Coffee, threads and the odd roast.',
      url: 'https://www.threads.net/@acme.coffee',
    });

    const declined = await dance('deny');
    expect(declined.searchParams.get('status')).to.equal('denied');
  });

  it('refreshes the long-lived token with th_refresh_token ahead of expiry; a removed app turns into account.needs_reconnection', async () => {
    await socialThreads.configure({ longLivedTtlSeconds: 3 * 24 * 3600, minRefreshAgeSeconds: 0 });
    const person = await socialThreads.newPerson('refresh.me');
    const accountId = (await dance()).searchParams.get('accountIds')!;
    const before = (await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body;
    await socialThreads.configure({ longLivedTtlSeconds: 5_184_000 });
    expect(await refreshExpiringTokens(t.app.services)).to.be.at.least(1);
    const after = (await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body;
    expect(Date.parse(after.tokenExpiresAt) - Date.parse(before.tokenExpiresAt)).to.be.above(50 * 24 * 3600 * 1000);
    expect((await t.app.api.get(`/accounts/${accountId}/about`, { token: t.owner.key })).body.username).to.equal('refresh.me');
    expect(await refreshExpiringTokens(t.app.services)).to.equal(0);

    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.needs_reconnection'] },
    });
    await socialThreads.removeApp(person.userId);
    await t.app.services
      .db('accounts')
      .where({ id: accountId })
      .update({ tokenExpiresAt: new Date(Date.now() + 3600_000) });
    await refreshExpiringTokens(t.app.services);
    expect((await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body).to.include({
      status: 'needs_reconnection',
      statusReason: 'token_revoked',
    });
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
  });

  it('a token too young to refresh is left as it is, and the account stays connected', async () => {
    await socialThreads.configure({ longLivedTtlSeconds: 3 * 24 * 3600 });
    await socialThreads.newPerson('too.young');
    const accountId = (await dance()).searchParams.get('accountIds')!;
    expect(await refreshExpiringTokens(t.app.services)).to.equal(0);
    const health = (await t.app.api.get('/accounts/health', { token: t.owner.key })).body.data[0];
    expect(health).to.include({ accountId, status: 'connected' });
    expect(health.lastError).to.include({ code: 'platform_error', platformCode: '100' });
  });
});
