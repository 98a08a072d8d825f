import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { MarketingPeople } from '../../support/sandbox/marketing.js';
import { connectAdAccounts, connectPages, pendingConnection } from '../../support/sandbox/social-network.js';
import { quiescent, until } from '../../support/wait.js';
import {
  BoostPeople,
  boostBody,
  boostable,
  EDGES,
  expectNothingLeft,
  expectOneBoost,
  KIND_OF,
  platformObjects,
  testBoostSettings,
} from './boost-support.js';

describeApi('boostPost — POST /ads/boost, GET /ads/boosts, POST /ads/boosts/{boostId}/status', { settings: testBoostSettings() }, (t) => {
  const people = new BoostPeople(() => t.app);
  const marketing = new MarketingPeople(() => t.app);
  const boost = (body: Record<string, unknown>, idempotencyKey?: string) =>
    t.app.api.post('/ads/boost', {
      token: t.owner.key,
      body,
      ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
    });
  const read = (boostId: string) => t.app.api.get(`/ads/boosts/${boostId}`, { token: t.owner.key });

  it('makes the campaign, ad set, creative promoting the post and ad, once each, and answers their ids (201)', async () => {
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    const made = await boost(boostBody(ad.adAccountId, postId, { name: 'Winter boost', objective: 'OUTCOME_TRAFFIC' }));
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({ adAccountId: ad.adAccountId, platformPostId: postId, status: 'active', postId: null, error: null });
    expect(made.body.name).to.equal(`Winter boost · ${made.body.id}`);
    expect(made.body.steps.map((step: any) => step.state)).to.deep.equal(['done', 'done', 'done', 'done']);
    expect(made.headers.get('location')).to.equal(`/ads/boosts/${made.body.id}`);
    await expectOneBoost(t.app, ad.platformAdAccountId);
    const { byKind } = await platformObjects(t.app, ad.platformAdAccountId);
    expect(byKind('campaign')[0]).to.deep.include({ id: made.body.campaignId });
    expect(byKind('campaign')[0]!.fields).to.include({ objective: 'OUTCOME_TRAFFIC' });
    expect(byKind('adset')[0]!.fields).to.include({ daily_budget: 1000, optimization_goal: 'LINK_CLICKS' });
    expect(byKind('adcreative')[0]!.fields).to.include({ object_story_id: postId });
    expect(byKind('ad')[0]).to.deep.include({ id: made.body.adId });
    expect((await read(made.body.id)).body).to.deep.equal(made.body);
  });

  it('boosts our own post by postId once it is published on social_network; refuses it before (422 post_not_boostable)', async () => {
    const person = await t.sandbox.socialNetwork.newPerson({ pages: 1, adAccounts: 1 });
    const page = await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), person.pageIds);
    const advertiser = await connectAdAccounts(t.app, t.owner, await pendingConnection(t.app, t.owner), person.adAccountIds);
    const [accountId, adAccountId] = [page.body.data[0].id, advertiser.body.data[0].id];
    const later = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text: 'Later', accountIds: [accountId], scheduledAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const refused = await boost({ ...boostBody(adAccountId, ''), platformPostId: undefined, postId: later.body.id });
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body).to.include({ code: 'post_not_boostable' });
    const now = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text: 'Winter blend is back', accountIds: [accountId], publishNow: true },
    });
    expect(now.status, now.text).to.be.oneOf([201, 202]);
    const published = await until(() => t.app.api.get(`/posts/${now.body.id}`, { token: t.owner.key }), {
      done: (answer) => answer.body.targets[0].status === 'published',
      what: 'the post published',
    });
    const made = await boost({ ...boostBody(adAccountId, ''), platformPostId: undefined, postId: now.body.id });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({ postId: now.body.id, platformPostId: published.body.targets[0].platformPostId });
  });

  it('refuses a post the platform will not promote with its reason (422 post_not_boostable); nothing is recorded or made', async () => {
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    await people.makeIneligible(postId, 'rejected');
    const refused = await boost(boostBody(ad.adAccountId, postId));
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.code).to.equal('post_not_boostable');
    expect(refused.body.detail).to.include('promotion_status rejected');
    const gone = await boost(boostBody(ad.adAccountId, '1_2'));
    expect(gone.status).to.equal(422);
    expect(gone.body.detail).to.include('was deleted, or is not on a page you manage');
    expect((await platformObjects(t.app, ad.platformAdAccountId)).objects).to.deep.equal([]);
    expect((await t.app.api.get('/ads/boosts', { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  it('a retry with the same Idempotency-Key answers the same boost and never makes a second campaign', async () => {
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    const first = await boost(boostBody(ad.adAccountId, postId), 'boost-1');
    const again = await boost(boostBody(ad.adAccountId, postId), 'boost-1');
    expect(first.status, first.text).to.equal(201);
    expect(again.body.id).to.equal(first.body.id);
    await expectOneBoost(t.app, ad.platformAdAccountId);
  });

  for (const [index, edge] of EDGES.entries()) {
    it(`a refusal of the ${KIND_OF[edge]} deletes the ${index} object(s) made before it: nothing is left, and the refusal is answered (422)`, async () => {
      const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
      await people.fail(ad.platformAdAccountId, edge, 'refuse', 1885183);
      const refused = await boost(boostBody(ad.adAccountId, postId));
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body).to.include({ code: 'ad_platform_rejected', platformCode: 100, platformSubcode: 1885183 });
      const { objects } = await platformObjects(t.app, ad.platformAdAccountId);
      expect(objects).to.have.length(index);
      await expectNothingLeft(t.app, ad.platformAdAccountId);
      const [failed] = (await t.app.api.get(`/ads/boosts?adAccountId=${ad.adAccountId}`, { token: t.owner.key })).body.data;
      expect(failed).to.include({ status: 'failed', campaignId: null, adId: null });
      expect(failed.error).to.include({
        code: 'ad_platform_rejected',
        step: EDGES.map((e) => KIND_OF[e])[index]!.replace('adcreative', 'creative'),
      });
      expect(failed.steps.map((step: any) => step.state)).to.deep.equal([
        ...Array(index).fill('deleted'),
        'refused',
        ...Array(3 - index).fill('pending'),
      ]);
    });

    it(`a lost answer of the ${KIND_OF[edge]} is looked up on the platform: the boost completes with each object made once`, async () => {
      const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
      await marketing.loseCreateAnswer(ad.platformAdAccountId, edge);
      const made = await boost(boostBody(ad.adAccountId, postId));
      expect(made.status, made.text).to.equal(201);
      await expectOneBoost(t.app, ad.platformAdAccountId);
    });
  }

  it('the token revoked at the ad set: the boost waits to roll back until the ad account is connected again, then leaves nothing', async () => {
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    await people.fail(ad.platformAdAccountId, 'adsets', 'revoke_token');
    const answered = await boost(boostBody(ad.adAccountId, postId));
    expect(answered.status, answered.text).to.equal(202);
    expect(answered.body).to.include({ status: 'rolling_back' });
    expect(answered.body.error).to.include({ code: 'account_not_connected', step: 'adset' });
    expect((await platformObjects(t.app, ad.platformAdAccountId)).byKind('campaign')[0]!.status).to.equal('ACTIVE');
    // The person signs in again and connects the same ad account: the rollback goes on with the new token.
    await t.sandbox.socialNetwork.signIn(ad.userId);
    const again = await connectAdAccounts(t.app, t.owner, await pendingConnection(t.app, t.owner), [ad.platformAdAccountId]);
    expect(again.status, again.text).to.equal(201);
    await until(() => read(answered.body.id), {
      done: (answer) => answer.body.status === 'failed',
      what: 'the boost rolled back',
      timeoutMs: 20_000,
    });
    await expectNothingLeft(t.app, ad.platformAdAccountId);
  });

  it('pauses, resumes and stops a boost’s campaign; a failed boost cannot be (409 boost_not_running)', async () => {
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    const made = await boost(boostBody(ad.adAccountId, postId));
    const status = (wanted: string, id = made.body.id) =>
      t.app.api.post(`/ads/boosts/${id}/status`, { token: t.owner.key, body: { status: wanted } });
    const campaign = async () => (await platformObjects(t.app, ad.platformAdAccountId)).byKind('campaign')[0]!.status;
    expect((await status('PAUSED')).body.status).to.equal('paused');
    expect(await campaign()).to.equal('PAUSED');
    expect((await status('ACTIVE')).body.status).to.equal('active');
    expect(await campaign()).to.equal('ACTIVE');
    expect((await status('STOPPED')).body.status).to.equal('stopped');
    expect(await campaign()).to.equal('ARCHIVED');
    const stopped = await status('PAUSED');
    expect(stopped.status).to.equal(409);
    expect(stopped.body.code).to.equal('boost_not_running');
    await quiescent(t.app);
  });

  itPagesByKeyset(t, 'listBoosts', async (count) => {
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const made = await boost(boostBody(ad.adAccountId, postId, { status: 'PAUSED' }));
      expect(made.status, made.text).to.equal(201);
      ids.push(made.body.id);
    }
    // Boosts paused first, the last one made active: the filter keeps only that one.
    await t.app.api.post(`/ads/boosts/${ids.at(-1)}/status`, { token: t.owner.key, body: { status: 'ACTIVE' } });
    return { path: '/ads/boosts', ids: ids.reverse(), filter: { query: 'status=active', ids: [ids[0]!] } };
  });
});
