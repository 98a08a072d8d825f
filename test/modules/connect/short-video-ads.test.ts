import { expect } from 'chai';
import { DEMO_ADVERTISERS } from '../../../src/sandbox/short-video-ads/demo.js';
import { describeApi } from '../../support/harness.js';
import { consent, returnToService, startConnection } from '../../support/sandbox/oauth.js';
import { quiescent } from '../../support/wait.js';
import { assertSigned } from '../../support/webhooks.js';

describeApi('short_video_ads — connecting advertisers as ad accounts', (t) => {
  const start = () => startConnection(t.app, t.owner, 'short_video_ads');

  /** Back at our callback: where it sends the caller's page. */
  async function callback(url: URL) {
    const response = await returnToService(t.app, url);
    expect(response.status).to.equal(302);
    return new URL(response.headers.get('location')!);
  }

  it('runs the whole redirect dance: auth_code exchanged, every advertiser granted becomes an ad account, account.connected each', async () => {
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['account.connected'] } });
    const authorizationUrl = await start();
    expect(Object.fromEntries(authorizationUrl.searchParams)).to.have.keys('app_id', 'state', 'redirect_uri');
    expect(authorizationUrl.searchParams.get('redirect_uri')).to.equal(
      `${t.app.services.config.publicUrl}/connect/short_video_ads/callback`,
    );
    const back = await consent(authorizationUrl, 'approve', { advertiser_ids: DEMO_ADVERTISERS.map((a) => a.advertiser_id).join(',') });
    expect(back.searchParams.get('auth_code')).to.be.a('string');
    const outcome = await callback(back);
    expect(outcome.searchParams.get('status')).to.equal('connected');
    expect(outcome.searchParams.has('accountIds')).to.equal(false);
    const adAccountIds = outcome.searchParams.get('adAccountIds')!.split(',');
    expect(adAccountIds).to.have.length(2);

    const listed = await t.app.api.get('/adaccounts', { token: t.owner.key });
    const byId = Object.fromEntries(listed.body.data.map((a: { platformAdAccountId: string }) => [a.platformAdAccountId, a]));
    expect(byId[DEMO_ADVERTISERS[0]!.advertiser_id]).to.include({
      platform: 'short_video_ads',
      name: 'Acme Coffee Ads',
      currency: 'USD',
      timezone: 'America/Los_Angeles',
      platformStatus: 'active',
      status: 'connected',
      tokenExpiresAt: null,
    });
    expect(byId[DEMO_ADVERTISERS[1]!.advertiser_id]).to.include({
      currency: 'EUR',
      timezone: 'Europe/Berlin',
      platformStatus: 'pending_review',
    });
    expect(listed.body.data.map((a: { id: string }) => a.id).sort()).to.deep.equal([...adAccountIds].sort());
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data).to.deep.equal([]);

    const events = await t.inbox.waitFor(2);
    for (const request of events) {
      assertSigned(request, hook.body.secret);
      expect(JSON.parse(request.rawBody).data).to.include({ accountType: 'ad_account', platform: 'short_video_ads', status: 'connected' });
    }
    const row = await t.app.services.db('adAccounts').where({ id: adAccountIds[0] }).first();
    const credentials = JSON.parse(t.app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string };
    expect(row.credentialsCiphertext).to.not.include(credentials.accessToken);
  });

  it('maps the advertiser status; connecting again reconnects the same ad account; a spent auth_code fails the exchange', async () => {
    const advertiser = await t.sandbox.shortVideoAds.newAdvertiser({
      name: 'Closed Shop',
      currency: 'jpy',
      display_timezone: 'Asia/Tokyo',
      status: 'STATUS_DISABLE',
    });
    const back = await consent(await start(), 'approve', { advertiser_ids: advertiser.advertiser_id });
    const first = (await callback(back)).searchParams.get('adAccountIds');
    const [listed] = (await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data;
    expect(listed).to.include({ id: first, name: 'Closed Shop', currency: 'JPY', timezone: 'Asia/Tokyo', platformStatus: 'disabled' });

    const again = await callback(await consent(await start(), 'approve', { advertiser_ids: advertiser.advertiser_id }));
    expect(again.searchParams.get('adAccountIds')).to.equal(first);

    // The old auth_code with a fresh state: the platform refuses it (40110), nothing more is connected.
    const replay = new URL(back);
    replay.searchParams.set('state', (await start()).searchParams.get('state')!);
    const failed = await callback(replay);
    expect(Object.fromEntries(failed.searchParams)).to.include({ status: 'failed', error: 'token_exchange_failed' });
    expect((await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data).to.have.length(1);
  });

  it('a declined consent connects nothing; a grant without advertisers is no_accounts_found', async () => {
    const declined = await callback(await consent(await start(), 'deny'));
    expect(Object.fromEntries(declined.searchParams)).to.include({ status: 'denied', error: 'access_denied' });
    const empty = await callback(await consent(await start(), 'approve', { advertiser_ids: '' }));
    expect(Object.fromEntries(empty.searchParams)).to.include({ status: 'failed', error: 'no_accounts_found' });
    expect((await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  it('deleteAdAccount disconnects once with account.disconnected', async () => {
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.disconnected'] },
    });
    const outcome = await callback(await consent(await start(), 'approve', { advertiser_ids: DEMO_ADVERTISERS[0]!.advertiser_id }));
    const id = outcome.searchParams.get('adAccountIds')!;
    expect((await t.app.api.delete(`/adaccounts/${id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/adaccounts/${id}`, { token: t.owner.key })).status).to.equal(204);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'account.disconnected' });
    expect(JSON.parse(request!.rawBody).data).to.include({ accountId: id, accountType: 'ad_account', platform: 'short_video_ads' });
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
    expect((await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data).to.deep.equal([]);
  });
});
