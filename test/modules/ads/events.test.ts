import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { adInReview, connectNewAdAccount, MarketingPeople } from '../../support/sandbox/marketing.js';
import { quiescent } from '../../support/wait.js';

describeApi('ad.* events — from the ad account webhooks of the social network', (t) => {
  const marketing = new MarketingPeople(() => t.app);
  const hookFor = (events: string[]) => t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events } });
  /** Every event sent, once nothing more is on its way. */
  const sent = async () => {
    await quiescent(t.app);
    return t.inbox.events();
  };

  it('an ad approved in review is one ad.status_changed naming its new status', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const adId = await adInReview(t.app, t.owner, ad);
    await hookFor(['ad.status_changed']);
    const reviewed = await marketing.review(adId, 'approve');
    expect(reviewed).to.include({ effectiveStatus: 'ACTIVE', statusName: 'Active' });
    const [event] = await t.inbox.waitFor(1);
    expect(JSON.parse(event!.rawBody)).to.deep.include({
      event: 'ad.status_changed',
      ownerId: t.owner.ownerId,
      profileId: t.owner.profileId,
      data: { adAccountId: ad.adAccountId, objectId: adId, level: 'ad', status_name: 'Active' },
    });
    expect(await sent()).to.have.length(1);
  });

  it('a delivery issue is one ad.issue with the platform’s code, summary and message', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const adId = await adInReview(t.app, t.owner, ad);
    await hookFor(['ad.issue']);
    await marketing.raiseIssue(adId, { error_code: 1487390, error_summary: 'No payment method', error_message: 'Add one.' });
    await t.inbox.waitFor(1);
    const events = await sent();
    expect(events.map(({ event, data }) => ({ event, data }))).to.deep.equal([
      {
        event: 'ad.issue',
        data: {
          adAccountId: ad.adAccountId,
          objectId: adId,
          level: 'ad',
          error_code: 1487390,
          error_summary: 'No payment method',
          error_message: 'Add one.',
        },
      },
    ]);
  });

  it('a recommendation is one ad.recommendation with the objects it is about', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const adId = await adInReview(t.app, t.owner, ad);
    await hookFor(['ad.recommendation']);
    const { recommendation } = await marketing.recommend(ad.platformAdAccountId, [adId]);
    await t.inbox.waitFor(1);
    const [event, ...more] = await sent();
    expect(more).to.deep.equal([]);
    expect(event!.data).to.deep.equal({
      adAccountId: ad.adAccountId,
      objectIds: [adId],
      recommendationType: 'AUDIENCE_EXPANSION',
      recommendationMessage: recommendation.recommendation_message,
      recommendationStage: 'CREATED',
      recommendationHash: recommendation.recommendation_hash,
    });
  });

  it('a webhook delivered twice (each delivery serialised anew) is one event', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const adId = await adInReview(t.app, t.owner, ad);
    await hookFor(['ad.status_changed']);
    await marketing.failWebhooks(ad.platformAdAccountId, [{ kind: 'duplicate_webhooks' }]);
    const reviewed = await marketing.review(adId, 'disapprove', 'Misleading claims');
    expect((reviewed as unknown as { deliveries: unknown[] }).deliveries).to.have.length(2);
    await t.inbox.waitFor(1);
    expect((await sent()).map(({ data }) => data.status_name)).to.deep.equal(['Disapproved']);
  });

  it('webhooks delivered newest first, each processed before the next: the older status is never sent after the newer', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const adId = await adInReview(t.app, t.owner, ad);
    await hookFor(['ad.status_changed']);
    await marketing.failWebhooks(ad.platformAdAccountId, [{ kind: 'hold_webhooks', count: 2 }]);
    await marketing.review(adId, 'disapprove');
    await marketing.review(adId, 'approve');
    expect((await marketing.releaseWebhooks(ad.platformAdAccountId)).stillHeld).to.equal(1);
    expect((await sent()).map(({ data }) => data.status_name)).to.deep.equal(['Active']);
    expect((await marketing.releaseWebhooks(ad.platformAdAccountId)).stillHeld).to.equal(0);
    expect((await sent()).map(({ data }) => data.status_name)).to.deep.equal(['Active']);
    // Both were taken: a redelivery of either is recognised.
    expect(
      await t.app.services.db('adObjectChanges').where({ adAccountId: ad.adAccountId }).orderBy('platformTime').pluck('emitted'),
    ).to.deep.equal([false, true]);
  });

  it('changes delivered together newest first are sent in the platform’s order', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const adId = await adInReview(t.app, t.owner, ad);
    await hookFor(['ad.issue']);
    await marketing.failWebhooks(ad.platformAdAccountId, [{ kind: 'hold_webhooks', count: 2 }]);
    await marketing.raiseIssue(adId, { error_summary: 'First' });
    await marketing.raiseIssue(adId, { error_summary: 'Second' });
    expect((await marketing.releaseWebhooks(ad.platformAdAccountId, true)).deliveries).to.have.length(1);
    await t.inbox.waitFor(2);
    expect((await sent()).map(({ data }) => data.error_summary)).to.deep.equal(['First', 'Second']);
  });

  it('the README walk: campaign, ad set, creative and ad through the service; the reviewer approves; ad.status_changed', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    await hookFor(['ad.status_changed']);
    const made = async (path: string, key: string, body: Record<string, unknown>) => {
      const answer = await t.app.api.post(path, {
        token: t.owner.key,
        headers: { 'Idempotency-Key': key },
        body: { adAccountId: ad.adAccountId, ...body },
      });
      expect(answer.status, `${path}: ${answer.text}`).to.equal(201);
      return answer.body;
    };
    const campaign = await made('/ads/campaigns', 'walk-campaign', {
      name: 'Winter',
      objective: 'OUTCOME_TRAFFIC',
      status: 'ACTIVE',
      isAdsetBudgetSharingEnabled: false,
    });
    const adset = await made('/ads/adsets', 'walk-adset', {
      campaignId: campaign.id,
      name: 'Winter US',
      status: 'ACTIVE',
      dailyBudget: 5000,
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: 'LINK_CLICKS',
      targeting: { geoLocations: { countries: ['US'] } },
    });
    const post = await t.sandbox.socialNetwork.postInApp(ad.pageId, 'Our winter blend is back.');
    const creative = await made('/ads/adcreatives', 'walk-creative', { name: 'Winter post', objectStoryId: post.id });
    const created = await made('/ads/ads', 'walk-ad', { adsetId: adset.id, creativeId: creative.id, name: 'Winter ad', status: 'ACTIVE' });
    expect(created.effectiveStatus).to.equal('PENDING_REVIEW');

    await marketing.review(created.id, 'approve');
    await t.inbox.waitFor(1);
    expect((await sent()).map(({ data }) => data)).to.deep.equal([
      { adAccountId: ad.adAccountId, objectId: created.id, level: 'ad', status_name: 'Active' },
    ]);
  });
});
