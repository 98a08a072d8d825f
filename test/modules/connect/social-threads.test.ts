import { expect } from 'chai';
import { refreshExpiringTokens } from '../../../src/modules/accounts/refresh.js';
import { DEMO_THREADS_USER } from '../../../src/sandbox/social-threads/demo.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { assertSigned, hookSettings } from '../hooks/support.js';
import { consent } from './oauth-support.js';

const DONE = 'http://localhost:9/done';

describe('social_threads — the user\'s own profile by OAuth, long-lived tokens refreshed', () => {
  let app: TestApp;
  let receiver: Receiver;
  let owner: TestOwner;

  before(async () => {
    receiver = await Receiver.start();
    app = await startTestApp(hookSettings(receiver.caFile));
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
    receiver.received.length = 0;
    await sandbox('settings', { longLivedTtlSeconds: 5_184_000, minRefreshAgeSeconds: 86_400 });
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  async function sandbox<T = any>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${app.services.sandboxUrl}/_sandbox/social_threads/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).to.be.below(300);
    return response.json() as Promise<T>;
  }

  async function dance(decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
    const started = await app.api.get(`/connect/social_threads?profileId=${owner.profileId}&redirectUrl=${encodeURIComponent(DONE)}`, { token: owner.key });
    expect(started.status).to.equal(200);
    const authorize = new URL(started.body.authorizationUrl);
    expect(authorize.searchParams.get('scope')).to.equal('threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_manage_insights,threads_delete');
    expect(authorize.searchParams.has('code_challenge')).to.equal(false);
    const back = await consent(started.body.authorizationUrl, decision);
    const callback = await app.api.get(`${back.pathname}${back.search}`);
    expect(callback.status).to.equal(302);
    return new URL(callback.headers.get('location')!);
  }

  it('runs the whole dance: code exchange, long-lived token (60 days), one account of kind user, account.connected, about', async () => {
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.connected'] } });
    const outcome = await dance();
    expect(outcome.searchParams.get('status')).to.equal('connected');
    const [accountId] = outcome.searchParams.get('accountIds')!.split(',');
    const account = await app.api.get(`/accounts/${accountId}`, { token: owner.key });
    expect(account.body).to.include({ platform: 'social_threads', kind: 'user', platformAccountId: DEMO_THREADS_USER.id, username: 'acme.coffee', name: 'Acme Coffee', status: 'connected' });
    expect(account.body.avatarUrl).to.match(/^https:\/\//);
    expect(Date.parse(account.body.tokenExpiresAt) - Date.now()).to.be.above(59 * 24 * 3600 * 1000);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId, platform: 'social_threads', status: 'connected' });
    const about = await app.api.get(`/accounts/${accountId}/about`, { token: owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({ username: 'acme.coffee', bio: 'Coffee, threads and the odd roast.', url: 'https://www.threads.net/@acme.coffee' });

    const declined = await dance('deny');
    expect(declined.searchParams.get('status')).to.equal('denied');
  });

  it('refreshes the long-lived token with th_refresh_token ahead of expiry; a removed app turns into account.needs_reconnection', async () => {
    await sandbox('settings', { longLivedTtlSeconds: 3 * 24 * 3600, minRefreshAgeSeconds: 0 });
    const person = await sandbox<{ userId: string }>('users', { username: 'refresh.me' });
    const accountId = (await dance()).searchParams.get('accountIds')!;
    const before = (await app.api.get(`/accounts/${accountId}`, { token: owner.key })).body;
    await sandbox('settings', { longLivedTtlSeconds: 5_184_000 });
    expect(await refreshExpiringTokens(app.services)).to.be.at.least(1);
    const after = (await app.api.get(`/accounts/${accountId}`, { token: owner.key })).body;
    expect(Date.parse(after.tokenExpiresAt) - Date.parse(before.tokenExpiresAt)).to.be.above(50 * 24 * 3600 * 1000);
    expect((await app.api.get(`/accounts/${accountId}/about`, { token: owner.key })).body.username).to.equal('refresh.me');
    expect(await refreshExpiringTokens(app.services)).to.equal(0);

    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.needs_reconnection'] } });
    await sandbox('remove-app', { userId: person.userId });
    await app.services.db('accounts').where({ id: accountId }).update({ tokenExpiresAt: new Date(Date.now() + 3600_000) });
    await refreshExpiringTokens(app.services);
    expect((await app.api.get(`/accounts/${accountId}`, { token: owner.key })).body).to.include({ status: 'needs_reconnection', statusReason: 'token_revoked' });
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
  });

  it('a token too young to refresh is left as it is, and the account stays connected', async () => {
    await sandbox('settings', { longLivedTtlSeconds: 3 * 24 * 3600 });
    await sandbox('users', { username: 'too.young' });
    const accountId = (await dance()).searchParams.get('accountIds')!;
    expect(await refreshExpiringTokens(app.services)).to.equal(0);
    const health = (await app.api.get('/accounts/health', { token: owner.key })).body.data[0];
    expect(health).to.include({ accountId, status: 'connected' });
    expect(health.lastError).to.include({ code: 'platform_error', platformCode: '100' });
  });
});
