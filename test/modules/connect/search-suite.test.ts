import { expect } from 'chai';
import { refreshExpiringTokens } from '../../../src/modules/accounts/refresh.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { assertSigned, hookSettings } from '../hooks/support.js';
import { consent } from './oauth-support.js';

const DONE = 'http://localhost:9/done';

describe('search_suite — connecting business profiles by OAuth', () => {
  let app: TestApp;
  let receiver: Receiver;
  let owner: TestOwner;
  let sandbox: string;

  before(async () => {
    receiver = await Receiver.start();
    app = await startTestApp(hookSettings(receiver.caFile));
    sandbox = app.services.sandboxUrl!;
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
    receiver.received.length = 0;
    await fetch(`${sandbox}/_sandbox/search_suite/settings`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"accessTokenTtlSeconds":3599}' });
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  async function start(query = '') {
    const response = await app.api.get(`/connect/search_suite?profileId=${owner.profileId}&redirectUrl=${encodeURIComponent(DONE)}${query}`, { token: owner.key });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body as { authorizationUrl: string; state: string };
  }

  /** The platform sends the browser back to our callback; we answer with the outcome for the caller's page. */
  async function callback(url: URL) {
    expect(url.origin).to.equal(app.services.config.publicUrl);
    const response = await app.api.get(`${url.pathname}${url.search}`);
    return response;
  }

  it('runs the whole redirect dance: consent, code exchange with PKCE, locations and calendar connected, account.connected', async () => {
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.connected'] } });
    const started = await start('&include=business_locations,calendar');
    const authorization = new URL(started.authorizationUrl);
    expect(authorization.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(authorization.searchParams.get('redirect_uri')).to.equal(`${app.services.config.publicUrl}/connect/search_suite/callback`);
    const back = await callback(await consent(started.authorizationUrl, 'approve'));
    expect(back.status).to.equal(302);
    const outcome = new URL(back.headers.get('location')!);
    expect(`${outcome.origin}${outcome.pathname}`).to.equal(DONE);
    expect(outcome.searchParams.get('status')).to.equal('connected');
    const accountIds = outcome.searchParams.get('accountIds')!.split(',');
    expect(accountIds).to.have.length(3);
    const listed = await app.api.get('/accounts', { token: owner.key });
    const byKind = listed.body.data.map((a: { platform: string; kind: string }) => `${a.platform}/${a.kind}`).sort();
    expect(byKind).to.deep.equal(['calendar/calendar', 'search_suite/business_location', 'search_suite/business_location']);
    const events = await receiver.waitFor(3);
    for (const request of events) assertSigned(request, hook.body.secret);
    const location = listed.body.data.find((a: { kind: string }) => a.kind === 'business_location');
    const about = await app.api.get(`/accounts/${location.id}/about`, { token: owner.key });
    expect(about.status).to.equal(200);
    expect(about.body.name).to.match(/^Acme Coffee — /);
    const calendar = listed.body.data.find((a: { kind: string }) => a.kind === 'calendar');
    expect((await app.api.get(`/accounts/${calendar.id}/about`, { token: owner.key })).body).to.include({ name: 'Acme bookings' });
  });

  it('a replayed state is refused with 400 oauth_state_invalid, and a declined consent connects nothing', async () => {
    const started = await start();
    const url = await consent(started.authorizationUrl, 'approve');
    expect((await callback(url)).status).to.equal(302);
    const replay = await callback(url);
    expect(replay.status).to.equal(400);
    expect(replay.body.code).to.equal('oauth_state_invalid');

    const other = await newOwner(app.api);
    owner = other;
    const declined = await callback(await consent((await start()).authorizationUrl, 'deny'));
    const outcome = new URL(declined.headers.get('location')!);
    expect(outcome.searchParams.get('status')).to.equal('denied');
    expect(outcome.searchParams.get('error')).to.equal('access_denied');
    expect((await app.api.get('/accounts', { token: other.key })).body.data).to.deep.equal([]);
  });

  it('an expired state ends as expired, without connecting', async () => {
    const started = await start();
    await app.services.db('oauthStates').where({ state: started.state }).update({ expiresAt: new Date(Date.now() - 1000) });
    const outcome = new URL((await callback(await consent(started.authorizationUrl, 'approve'))).headers.get('location')!);
    expect(outcome.searchParams.get('status')).to.equal('expired');
    expect((await app.api.get('/accounts', { token: owner.key })).body.data).to.deep.equal([]);
  });

  it('refreshes tokens before they expire; access revoked on the platform turns into account.needs_reconnection', async () => {
    await fetch(`${sandbox}/_sandbox/search_suite/settings`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"accessTokenTtlSeconds":60}' });
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.needs_reconnection'] } });
    await callback(await consent((await start()).authorizationUrl, 'approve'));
    const [before] = (await app.api.get('/accounts', { token: owner.key })).body.data;
    expect(Date.parse(before.tokenExpiresAt) - Date.now()).to.be.below(61_000);
    expect(await refreshExpiringTokens(app.services)).to.be.at.least(2);
    const after = await app.api.get(`/accounts/${before.id}`, { token: owner.key });
    expect(Date.parse(after.body.tokenExpiresAt)).to.be.above(Date.parse(before.tokenExpiresAt));
    expect((await app.api.get(`/accounts/${before.id}/about`, { token: owner.key })).status).to.equal(200);

    await fetch(`${sandbox}/_sandbox/search_suite/revoke-access`, { method: 'POST' });
    await refreshExpiringTokens(app.services);
    const revoked = await app.api.get(`/accounts/${before.id}`, { token: owner.key });
    expect(revoked.body).to.include({ status: 'needs_reconnection' });
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).event).to.equal('account.needs_reconnection');
  });
});
