import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { authorise } from '../../support/sandbox/oauth.js';
import { quiescent } from '../../support/wait.js';

describeApi('short_video_ads — the Business API webhooks', (t) => {
  const ads = t.sandbox.shortVideoAds;

  /** Two advertisers of their own, connected as ad accounts by the owner: their ids here and at the platform. */
  async function connectAdvertisers() {
    const advertisers = [await ads.newAdvertiser({ name: 'Roastery Ads' }), await ads.newAdvertiser({ name: 'Roastery Ads EU' })];
    const outcome = await authorise(t.app, t.owner, 'short_video_ads', {
      fields: { advertiser_ids: advertisers.map((a) => a.advertiser_id).join(',') },
    });
    expect(outcome.searchParams.get('status'), outcome.toString()).to.equal('connected');
    const listed = (await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data as Array<{
      id: string;
      platformAdAccountId: string;
    }>;
    return advertisers.map((advertiser) => listed.find((a) => a.platformAdAccountId === advertiser.advertiser_id)!);
  }

  /** The ad account as its owner lists it. */
  async function adAccount(id: string) {
    const listed = (await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data as Array<{ id: string }>;
    return listed.find((a) => a.id === id);
  }

  const storedWebhooks = async () =>
    Number((await t.app.services.db('platformWebhooks').where({ platform: 'short_video_ads' }).count({ n: '*' }))[0]!.n);

  it('has no handshake: GET answers 403 webhook_verification_failed', async () => {
    const query = 'hub.mode=subscribe&hub.verify_token=anything&hub.challenge=12345';
    const response = await t.app.api.get(`/webhooks/short_video_ads?${query}`);
    expect(response.status).to.equal(403);
    expect(response.body.code).to.equal('webhook_verification_failed');
  });

  it('an advertiser revoking the app: its ad account needs a reconnection, announced once; the other stays connected', async () => {
    const [revoked, kept] = await connectAdvertisers();
    await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['account.needs_reconnection'] } });
    const sent = await ads.removeApp([revoked!.platformAdAccountId]);
    expect(sent.webhookStatus).to.equal(200);
    const [event] = await t.inbox.waitFor(1);
    expect(JSON.parse(event!.rawBody).data).to.include({
      accountId: revoked!.id,
      accountType: 'ad_account',
      platform: 'short_video_ads',
      status: 'needs_reconnection',
    });
    expect(await adAccount(revoked!.id)).to.include({ status: 'needs_reconnection', statusReason: 'token_revoked' });
    expect(await adAccount(kept!.id)).to.include({ status: 'connected' });

    // The platform delivers at least once: the same news again changes nothing.
    const content = { advertiser_ids: [revoked!.platformAdAccountId], reason: 1 };
    expect((await ads.sendEvent('authorization.removed', content)).webhookStatus).to.equal(200);
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(1);
  });

  it('refuses a signature that does not match, or dated beyond the tolerance either way, with 401; nothing is stored', async () => {
    const [adAccountOf] = await connectAdvertisers();
    const stored = await storedWebhooks();
    const content = { advertiser_ids: [adAccountOf!.platformAdAccountId], reason: 1 };
    for (const signing of ['mismatch', 'stale', 'future'] as const) {
      expect((await ads.sendEvent('authorization.removed', content, signing)).webhookStatus, signing).to.equal(401);
    }
    const unsigned = await t.app.api.post('/webhooks/short_video_ads', { body: { event: 'authorization.removed' } });
    expect(unsigned.status).to.equal(401);
    expect(unsigned.body.code).to.equal('invalid_signature');
    expect(await storedWebhooks()).to.equal(stored);
    await quiescent(t.app);
    expect(await adAccount(adAccountOf!.id)).to.include({ status: 'connected' });
  });

  it('answers 400 to a well-signed event naming an advertiser with a NUL character, and stores nothing', async () => {
    const stored = await storedWebhooks();
    const sent = await ads.sendEvent('authorization.removed', { advertiser_ids: ['7000\u0000001'], reason: 1 });
    expect(sent.webhookStatus).to.equal(400);
    expect(await storedWebhooks()).to.equal(stored);
  });
});
