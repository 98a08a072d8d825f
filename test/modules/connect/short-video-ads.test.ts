import { expect } from 'chai';
import { DEMO_ADVERTISERS } from '../../../src/sandbox/short-video-ads/demo.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { assertSigned, hookSettings } from '../hooks/support.js';
import { consent } from './oauth-support.js';

const DONE = 'http://localhost:9/done';

describe('short_video_ads — connecting advertisers as ad accounts', () => {
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
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  async function start() {
    const started = await app.api.get(`/connect/short_video_ads?profileId=${owner.profileId}&redirectUrl=${encodeURIComponent(DONE)}`, { token: owner.key });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    return started.body.authorizationUrl as string;
  }

  async function callback(url: URL) {
    expect(url.origin).to.equal(app.services.config.publicUrl);
    const response = await app.api.get(`${url.pathname}${url.search}`);
    expect(response.status).to.equal(302);
    return new URL(response.headers.get('location')!);
  }

  it('runs the whole redirect dance: auth_code exchanged, every advertiser granted becomes an ad account, account.connected each', async () => {
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.connected'] } });
    const authorizationUrl = new URL(await start());
    expect(Object.fromEntries(authorizationUrl.searchParams)).to.have.keys('app_id', 'state', 'redirect_uri');
    expect(authorizationUrl.searchParams.get('redirect_uri')).to.equal(`${app.services.config.publicUrl}/connect/short_video_ads/callback`);
    const back = await consent(authorizationUrl.toString(), 'approve', { advertiser_ids: DEMO_ADVERTISERS.map((a) => a.advertiser_id).join(',') });
    expect(back.searchParams.get('auth_code')).to.be.a('string');
    const outcome = await callback(back);
    expect(outcome.searchParams.get('status')).to.equal('connected');
    expect(outcome.searchParams.has('accountIds')).to.equal(false);
    const adAccountIds = outcome.searchParams.get('adAccountIds')!.split(',');
    expect(adAccountIds).to.have.length(2);

    const listed = await app.api.get('/adaccounts', { token: owner.key });
    const byId = Object.fromEntries(listed.body.data.map((a: { platformAdAccountId: string }) => [a.platformAdAccountId, a]));
    expect(byId[DEMO_ADVERTISERS[0]!.advertiser_id]).to.include({
      platform: 'short_video_ads', name: 'Acme Coffee Ads', currency: 'USD', timezone: 'America/Los_Angeles', platformStatus: 'active', status: 'connected', tokenExpiresAt: null,
    });
    expect(byId[DEMO_ADVERTISERS[1]!.advertiser_id]).to.include({ currency: 'EUR', timezone: 'Europe/Berlin', platformStatus: 'pending_review' });
    expect(listed.body.data.map((a: { id: string }) => a.id).sort()).to.deep.equal([...adAccountIds].sort());
    expect((await app.api.get('/accounts', { token: owner.key })).body.data).to.deep.equal([]);

    const events = await receiver.waitFor(2);
    for (const request of events) {
      assertSigned(request, hook.body.secret);
      expect(JSON.parse(request.rawBody).data).to.include({ accountType: 'ad_account', platform: 'short_video_ads', status: 'connected' });
    }
    const row = await app.services.db('adAccounts').where({ id: adAccountIds[0] }).first();
    const credentials = JSON.parse(app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string };
    expect(row.credentialsCiphertext).to.not.include(credentials.accessToken);
  });

  it('maps the advertiser status; connecting again reconnects the same ad account; a spent auth_code fails the exchange', async () => {
    const created = await fetch(`${sandbox}/_sandbox/short_video_ads/advertisers`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Closed Shop', currency: 'jpy', display_timezone: 'Asia/Tokyo', status: 'STATUS_DISABLE' }),
    });
    const advertiser = await created.json() as { advertiser_id: string };
    const back = await consent(await start(), 'approve', { advertiser_ids: advertiser.advertiser_id });
    const first = (await callback(back)).searchParams.get('adAccountIds');
    const [listed] = (await app.api.get('/adaccounts', { token: owner.key })).body.data;
    expect(listed).to.include({ id: first, name: 'Closed Shop', currency: 'JPY', timezone: 'Asia/Tokyo', platformStatus: 'disabled' });

    const again = await callback(await consent(await start(), 'approve', { advertiser_ids: advertiser.advertiser_id }));
    expect(again.searchParams.get('adAccountIds')).to.equal(first);

    // The old auth_code with a fresh state: the platform refuses it (40110), nothing more is connected.
    const replay = new URL(back);
    replay.searchParams.set('state', new URL(await start()).searchParams.get('state')!);
    const failed = await callback(replay);
    expect(Object.fromEntries(failed.searchParams)).to.include({ status: 'failed', error: 'token_exchange_failed' });
    expect((await app.api.get('/adaccounts', { token: owner.key })).body.data).to.have.length(1);
  });

  it('a declined consent connects nothing; a grant without advertisers is no_accounts_found', async () => {
    const declined = await callback(await consent(await start(), 'deny'));
    expect(Object.fromEntries(declined.searchParams)).to.include({ status: 'denied', error: 'access_denied' });
    const empty = await callback(await consent(await start(), 'approve', { advertiser_ids: '' }));
    expect(Object.fromEntries(empty.searchParams)).to.include({ status: 'failed', error: 'no_accounts_found' });
    expect((await app.api.get('/adaccounts', { token: owner.key })).body.data).to.deep.equal([]);
  });

  it('deleteAdAccount disconnects once with account.disconnected', async () => {
    const hook = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['account.disconnected'] } });
    const outcome = await callback(await consent(await start(), 'approve', { advertiser_ids: DEMO_ADVERTISERS[0]!.advertiser_id }));
    const id = outcome.searchParams.get('adAccountIds')!;
    expect((await app.api.delete(`/adaccounts/${id}`, { token: owner.key })).status).to.equal(204);
    expect((await app.api.delete(`/adaccounts/${id}`, { token: owner.key })).status).to.equal(204);
    const [request] = await receiver.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.disconnected' });
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, accountType: 'ad_account', platform: 'short_video_ads' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).to.have.length(1);
    expect((await app.api.get('/adaccounts', { token: owner.key })).body.data).to.deep.equal([]);
  });
});
