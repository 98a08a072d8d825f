import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { refreshExpiringTokens } from '../../../src/modules/accounts/refresh.js';
import { SANDBOX_APP } from '../../../src/sandbox/short-video/demo.js';
import { storedAccount } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { consent, returnToService, startConnection } from '../../support/sandbox/oauth.js';
import { quiescent } from '../../support/wait.js';
import { assertSigned } from '../../support/webhooks.js';

describeApi('short_video — connecting a creator by Login Kit, refresh rotation, the app removed', (t) => {
  const { shortVideo } = t.sandbox;
  beforeEach(() => shortVideo.configure({ accessTokenTtlSeconds: 7200, rateLimited: false }));

  /** A creator of their own for each test, so one test's removal of the app reaches no other test's account. */
  async function connect(fields: Record<string, string> = {}) {
    const creator = await shortVideo.newCreator('Mia Makes Pasta');
    const authorizationUrl = await startConnection(t.app, t.owner, 'short_video');
    const back = await returnToService(t.app, await consent(authorizationUrl, 'approve', { open_id: creator.openId, ...fields }));
    expect(back.status).to.equal(302);
    return { creator, outcome: new URL(back.headers.get('location')!), authorizationUrl };
  }

  const stored = (accountId: string) => storedAccount(t.app, accountId);

  /** As the platform signs: `TikTok-Signature: t=<unix>,s=<hex HMAC-SHA256(client secret, t.rawBody)>`. */
  function signed(body: unknown, secret = SANDBOX_APP.clientSecret, t = Math.floor(Date.now() / 1000)) {
    const rawBody = JSON.stringify(body);
    return {
      rawBody,
      headers: {
        'Content-Type': 'application/json',
        'TikTok-Signature': `t=${t},s=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`,
      },
    };
  }

  it('runs the whole redirect dance: consent with a hex PKCE challenge, the creator as a user account, health and about', async () => {
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['account.connected'] } });
    const { creator, outcome, authorizationUrl } = await connect();
    expect(Object.fromEntries(authorizationUrl.searchParams)).to.include({
      client_key: SANDBOX_APP.clientKey,
      scope: 'user.info.basic,user.info.stats,video.publish,video.upload,video.list',
      response_type: 'code',
      redirect_uri: `${t.app.services.config.publicUrl}/connect/short_video/callback`,
      code_challenge_method: 'S256',
    });
    expect(authorizationUrl.searchParams.get('code_challenge')).to.match(/^[0-9a-f]{64}$/);
    expect(outcome.searchParams.get('status')).to.equal('connected');
    const [accountId] = outcome.searchParams.get('accountIds')!.split(',');

    const listed = await t.app.api.get('/accounts', { token: t.owner.key });
    expect(listed.body.data).to.have.length(1);
    expect(listed.body.data[0]).to.include({
      id: accountId,
      platform: 'short_video',
      kind: 'user',
      platformAccountId: creator.openId,
      name: 'Mia Makes Pasta',
      status: 'connected',
    });
    expect(Date.parse(listed.body.data[0].tokenExpiresAt) - Date.now()).to.be.within(7_100_000, 7_200_000);
    const health = await t.app.api.get('/accounts/health', { token: t.owner.key });
    expect(health.body.data[0]).to.include({ accountId, status: 'connected', action: 'none' });
    const about = await t.app.api.get(`/accounts/${accountId}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({ platform: 'short_video', platformAccountId: creator.openId, name: 'Mia Makes Pasta' });

    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId, platform: 'short_video', status: 'connected' });
    const { row, credentials } = await stored(accountId!);
    expect(row.credentialsCiphertext).to.not.include(credentials.accessToken);
  });

  it('refreshes with rotation: the newest refresh token is stored, the spent one no longer works', async () => {
    await shortVideo.configure({ accessTokenTtlSeconds: 60 });
    const { outcome } = await connect();
    const accountId = outcome.searchParams.get('accountIds')!;
    const before = await stored(accountId);
    expect(await refreshExpiringTokens(t.app.services)).to.be.at.least(1);
    const after = await stored(accountId);
    expect(after.credentials.refreshToken).to.not.equal(before.credentials.refreshToken);
    expect(after.credentials.accessToken).to.not.equal(before.credentials.accessToken);
    expect(after.row.tokenExpiresAt.getTime()).to.be.above(before.row.tokenExpiresAt.getTime());

    const spent = await fetch(`${t.app.services.sandboxUrl}/short_video/v2/oauth/token/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...{ client_key: SANDBOX_APP.clientKey, client_secret: SANDBOX_APP.clientSecret },
        grant_type: 'refresh_token',
        refresh_token: before.credentials.refreshToken!,
      }),
    });
    expect(spent.status).to.equal(400);
    expect(await spent.json()).to.include({ error: 'invalid_grant' });
    expect((await t.app.api.get(`/accounts/${accountId}/about`, { token: t.owner.key })).status).to.equal(200);
    // The next refresh spends the newest token, so it still works.
    await t.app.services
      .db('accounts')
      .where({ id: accountId })
      .update({ tokenExpiresAt: new Date(Date.now() + 1000) });
    expect(await refreshExpiringTokens(t.app.services)).to.be.at.least(1);
    expect((await stored(accountId)).row.status).to.equal('connected');
  });

  it('authorization.removed, validly signed, turns the account into needs_reconnection (token_revoked), never disconnected', async () => {
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.needs_reconnection', 'account.disconnected'] },
    });
    const { creator, outcome } = await connect();
    const accountId = outcome.searchParams.get('accountIds')!;
    const removed = await shortVideo.removeApp(creator.openId, { webhook: true });
    expect(removed.webhookStatus).to.equal(200);
    await quiescent(t.app);
    const account = await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key });
    expect(account.body).to.include({ status: 'needs_reconnection', statusReason: 'token_revoked' });
    const health = await t.app.api.get('/accounts/health', { token: t.owner.key });
    expect(health.body.data[0]).to.include({ accountId, action: 'reconnect' });

    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.needs_reconnection' });
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId, status: 'needs_reconnection', statusReason: 'token_revoked' });
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
    expect(await t.app.services.db('events').where({ ownerId: t.owner.ownerId, name: 'account.disconnected' })).to.have.length(0);
  });

  it('refuses a forged, stale or foreign webhook with 401 and stores nothing; other events are stored and change nothing', async () => {
    const { creator, outcome } = await connect();
    const accountId = outcome.searchParams.get('accountIds')!;
    const count = async () =>
      Number((await t.app.services.db('platformWebhooks').where({ platform: 'short_video' }).count({ n: '*' }))[0]!.n);
    const stored0 = await count();
    const removal = {
      client_key: SANDBOX_APP.clientKey,
      event: 'authorization.removed',
      create_time: Math.floor(Date.now() / 1000),
      user_openid: creator.openId,
      content: '{"reason":1}',
    };
    const attempts = [
      signed(removal, 'not-the-client-secret'),
      signed(removal, SANDBOX_APP.clientSecret, Math.floor(Date.now() / 1000) - 3600),
      signed({ ...removal, client_key: 'someone-elses-app' }),
      { rawBody: JSON.stringify(removal), headers: { 'Content-Type': 'application/json' } },
    ];
    for (const attempt of attempts) {
      const response = await t.app.api.post('/webhooks/short_video', attempt);
      expect(response.status).to.equal(401);
      expect(response.body.code).to.equal('invalid_signature');
    }
    expect(await count()).to.equal(stored0);

    const published = signed({ ...removal, event: 'post.publish.complete', content: '{"publish_id":"v_pub_1"}' });
    const accepted = await t.app.api.post('/webhooks/short_video', published);
    expect(accepted.body).to.deep.equal({ received: true, duplicate: false });
    expect((await t.app.api.post('/webhooks/short_video', published)).body.duplicate).to.equal(true);
    await quiescent(t.app);
    expect(await count()).to.equal(stored0 + 1);
    expect((await stored(accountId)).row.status).to.equal('connected');
  });

  it('deleteAccount revokes at the platform and emits account.disconnected once', async () => {
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.disconnected', 'account.needs_reconnection'] },
    });
    const { outcome } = await connect();
    const accountId = outcome.searchParams.get('accountIds')!;
    const { credentials } = await stored(accountId);
    expect((await t.app.api.delete(`/accounts/${accountId}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/accounts/${accountId}`, { token: t.owner.key })).status).to.equal(204);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.disconnected' });
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
    const info = await fetch(`${t.app.services.sandboxUrl}/short_video/v2/user/info/?fields=open_id`, {
      headers: { Authorization: `Bearer ${credentials.accessToken}` },
    });
    expect(info.status).to.equal(401);
    expect(((await info.json()) as { error: { code: string } }).error.code).to.equal('access_token_invalid');
  });

  it('a consent without video.publish fails as permission_missing; a declined one as denied; a rate limit is not a reconnection', async () => {
    const unticked = await connect({ scope: 'user.info.basic' });
    expect(Object.fromEntries(unticked.outcome.searchParams)).to.include({ status: 'failed', error: 'permission_missing' });
    const declined = await returnToService(t.app, await consent(await startConnection(t.app, t.owner, 'short_video'), 'deny'));
    expect(new URL(declined.headers.get('location')!).searchParams.get('status')).to.equal('denied');
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data).to.deep.equal([]);

    const { outcome } = await connect();
    const accountId = outcome.searchParams.get('accountIds')!;
    await shortVideo.configure({ rateLimited: true });
    const throttled = await t.app.api.get(`/accounts/${accountId}/about`, { token: t.owner.key });
    expect([throttled.status, throttled.body.code]).to.deep.equal([429, 'platform_rate_limited']);
    expect(Number(throttled.headers.get('retry-after'))).to.be.greaterThan(0);
    const { row } = await stored(accountId);
    expect(row.status).to.equal('connected');
    expect(row.lastError).to.include({ code: 'rate_limited', platformCode: 'rate_limit_exceeded' });
  });
});
