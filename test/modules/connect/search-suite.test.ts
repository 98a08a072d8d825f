import { expect } from 'chai';
import { refreshExpiringTokens } from '../../../src/modules/accounts/refresh.js';
import { PlatformError } from '../../../src/platforms/errors.js';
import { type GoogleApp, refreshGoogle } from '../../../src/platforms/search-suite/client.js';
import { storedAccount } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { newOwner } from '../../support/owners.js';
import { consent, DONE, returnToService, startConnection } from '../../support/sandbox/oauth.js';
import { assertSigned } from '../../support/webhooks.js';

describeApi('search_suite — connecting business profiles by OAuth', (t) => {
  const { searchSuite } = t.sandbox;
  beforeEach(() => searchSuite.configure({ accessTokenTtlSeconds: 3599 }));

  const start = (options: { query?: string } = {}) => startConnection(t.app, t.owner, 'search_suite', options);

  it('runs the whole redirect dance: consent, code exchange with PKCE, locations and calendar connected, account.connected', async () => {
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['account.connected'] } });
    const authorization = await start({ query: '&include=business_locations,calendar' });
    expect(authorization.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(authorization.searchParams.get('redirect_uri')).to.equal(`${t.app.services.config.publicUrl}/connect/search_suite/callback`);
    const back = await returnToService(t.app, await consent(authorization, 'approve'));
    expect(back.status).to.equal(302);
    const outcome = new URL(back.headers.get('location')!);
    expect(`${outcome.origin}${outcome.pathname}`).to.equal(DONE);
    expect(outcome.searchParams.get('status')).to.equal('connected');
    const accountIds = outcome.searchParams.get('accountIds')!.split(',');
    expect(accountIds).to.have.length(3);
    const listed = await t.app.api.get('/accounts', { token: t.owner.key });
    const byKind = listed.body.data.map((a: { platform: string; kind: string }) => `${a.platform}/${a.kind}`).sort();
    expect(byKind).to.deep.equal(['calendar/calendar', 'search_suite/business_location', 'search_suite/business_location']);
    const events = await t.inbox.waitFor(3);
    for (const request of events) assertSigned(request, hook.body.secret);
    const location = listed.body.data.find((a: { kind: string }) => a.kind === 'business_location');
    const about = await t.app.api.get(`/accounts/${location.id}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body.name).to.match(/^Acme Coffee — /);
    const calendar = listed.body.data.find((a: { kind: string }) => a.kind === 'calendar');
    expect((await t.app.api.get(`/accounts/${calendar.id}/about`, { token: t.owner.key })).body).to.include({ name: 'Acme bookings' });
  });

  it('a replayed state is refused with 400 oauth_state_invalid, and a declined consent connects nothing', async () => {
    const url = await consent(await start(), 'approve');
    expect((await returnToService(t.app, url)).status).to.equal(302);
    const replay = await returnToService(t.app, url);
    expect(replay.status).to.equal(400);
    expect(replay.body.code).to.equal('oauth_state_invalid');

    const other = await newOwner(t.app.api);
    const declined = await returnToService(t.app, await consent(await startConnection(t.app, other, 'search_suite'), 'deny'));
    const outcome = new URL(declined.headers.get('location')!);
    expect(outcome.searchParams.get('status')).to.equal('denied');
    expect(outcome.searchParams.get('error')).to.equal('access_denied');
    expect((await t.app.api.get('/accounts', { token: other.key })).body.data).to.deep.equal([]);
  });

  it('an expired state ends as expired, without connecting', async () => {
    const authorization = await start();
    await t.app.services
      .db('oauthStates')
      .where({ state: authorization.searchParams.get('state') })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    const outcome = new URL((await returnToService(t.app, await consent(authorization, 'approve'))).headers.get('location')!);
    expect(outcome.searchParams.get('status')).to.equal('expired');
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  it('refreshes tokens before they expire; access revoked on the platform turns into account.needs_reconnection', async () => {
    await searchSuite.configure({ accessTokenTtlSeconds: 60 });
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.needs_reconnection'] },
    });
    await returnToService(t.app, await consent(await start(), 'approve'));
    const [before] = (await t.app.api.get('/accounts', { token: t.owner.key })).body.data;
    expect(Date.parse(before.tokenExpiresAt) - Date.now()).to.be.below(61_000);
    expect(await refreshExpiringTokens(t.app.services)).to.be.at.least(2);
    const after = await t.app.api.get(`/accounts/${before.id}`, { token: t.owner.key });
    expect(Date.parse(after.body.tokenExpiresAt)).to.be.above(Date.parse(before.tokenExpiresAt));
    expect((await t.app.api.get(`/accounts/${before.id}/about`, { token: t.owner.key })).status).to.equal(200);

    await searchSuite.removeApp();
    await refreshExpiringTokens(t.app.services);
    const revoked = await t.app.api.get(`/accounts/${before.id}`, { token: t.owner.key });
    expect(revoked.body).to.include({ status: 'needs_reconnection' });
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).event).to.equal('account.needs_reconnection');
  });

  it('deleteAccount — disconnecting one location keeps the grant its other location and calendar rely on; the last one revokes it', async () => {
    await searchSuite.configure({ accessTokenTtlSeconds: 60 });
    await returnToService(t.app, await consent(await start({ query: '&include=business_locations,calendar' }), 'approve'));
    const accounts = (await t.app.api.get('/accounts', { token: t.owner.key })).body.data as Array<{ id: string; kind: string }>;
    const [first, second] = accounts.filter((account) => account.kind === 'business_location');
    const calendar = accounts.find((account) => account.kind === 'calendar')!;
    const { credentials } = await storedAccount(t.app, first!.id);
    const read = t.app.services.config.platforms.search_suite;
    if (!read.configured) throw new Error(read.needs);
    const app: GoogleApp = read.settings;
    const grantLives = () =>
      refreshGoogle(app, credentials).then(
        () => true,
        (error: unknown) => (error instanceof PlatformError ? false : Promise.reject(error)),
      );

    expect((await t.app.api.delete(`/accounts/${first!.id}`, { token: t.owner.key })).status).to.equal(204);
    expect(await grantLives(), 'the grant after the first location left').to.equal(true);
    expect(await refreshExpiringTokens(t.app.services)).to.equal(2);
    for (const id of [second!.id, calendar.id]) {
      expect((await t.app.api.get(`/accounts/${id}`, { token: t.owner.key })).body, id).to.include({ status: 'connected' });
      expect((await t.app.api.get(`/accounts/${id}/about`, { token: t.owner.key })).status, id).to.equal(200);
    }
    expect((await t.app.api.delete(`/accounts/${second!.id}`, { token: t.owner.key })).status).to.equal(204);
    expect(await grantLives(), 'the calendar still relies on it').to.equal(true);
    expect((await t.app.api.delete(`/accounts/${calendar.id}`, { token: t.owner.key })).status).to.equal(204);
    expect(await grantLives(), 'the last account of the grant left').to.equal(false);
  });
});
