import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { type ConnectedAdAccount, connectMetaAdAccount } from './insights-support.js';

describeApi('ad targeting on social_network — locations, interests, behaviours, reach', (t) => {
  let ad: ConnectedAdAccount;
  beforeEach(async () => {
    ad = await connectMetaAdAccount(t.app, t.owner);
  });
  const get = (path: string, query: Record<string, string>) =>
    t.app.api.get(`${path}?${new URLSearchParams({ adAccountId: ad.adAccountId, ...query })}`, { token: t.owner.key });
  const estimate = (body: Record<string, unknown>) =>
    t.app.api.post('/ads/reach-estimate', { token: t.owner.key, body: { adAccountId: ad.adAccountId, ...body } });

  it('searchAdLocations finds cities by the start of their name, with their region, and only the types and country asked', async () => {
    const cities = await get('/ads/locations', { q: 'Ham', types: 'city', countryCode: 'DE' });
    expect(cities.status, JSON.stringify(cities.body)).to.equal(200);
    expect(cities.body.data).to.deep.equal([
      { key: '2523556', name: 'Hamburg', type: 'city', countryCode: 'DE', countryName: 'Germany', region: 'Hamburg', regionKey: '3856' },
      {
        key: '2528034',
        name: 'Hamm',
        type: 'city',
        countryCode: 'DE',
        countryName: 'Germany',
        region: 'North Rhine-Westphalia',
        regionKey: '3855',
      },
    ]);
    const regions = await get('/ads/locations', { q: 'Hamburg', types: 'region' });
    expect(regions.body.data).to.deep.equal([
      { key: '3856', name: 'Hamburg', type: 'region', countryCode: 'DE', countryName: 'Germany', region: null, regionKey: null },
    ]);
  });

  it('searchAdInterests and searchAdBehaviors give the ids targeting takes, with the audience size range', async () => {
    const interests = await get('/ads/targeting/interests', { q: 'coffee' });
    expect(interests.status).to.equal(200);
    expect(interests.body.data.map((i: { name: string }) => i.name)).to.deep.equal(['Coffee', 'Coffeehouse']);
    expect(interests.body.data[0]).to.deep.include({
      id: '6003107902433',
      type: 'interest',
      path: ['Interests', 'Food and drink', 'Beverages', 'Coffee'],
    });
    expect(interests.body.data[0].audienceSizeLowerBound).to.be.below(interests.body.data[0].audienceSizeUpperBound);
    const behaviors = await get('/ads/targeting/behaviors', { q: 'travel', limit: '1' });
    expect(behaviors.body.data).to.have.length(1);
    expect(behaviors.body.data[0]).to.include({ id: '6002714895372', name: 'Frequent travellers', type: 'behavior' });
    const next = await get('/ads/targeting/behaviors', { q: 'travel', limit: '1', cursor: behaviors.body.nextCursor });
    expect(next.body).to.deep.include({ nextCursor: null });
    expect(next.body.data[0].name).to.equal('Frequent international travellers');
  });

  it('estimateAdReach sizes a targeting spec, narrower for narrower targeting, and answers 422 ad_platform_rejected for an unknown interest', async () => {
    const germany = await estimate({ targeting: { geoLocations: { countries: ['DE'] } } });
    expect(germany.status, JSON.stringify(germany.body)).to.equal(200);
    expect(germany.body).to.include({ adAccountId: ad.adAccountId, ready: true });
    const narrower = await estimate({
      targeting: { geoLocations: { countries: ['DE'] }, ageMin: 25, ageMax: 34, genders: ['female'], interests: [{ id: '6003107902433' }] },
      optimizationGoal: 'REACH',
    });
    expect(narrower.body.audienceSizeUpperBound).to.be.below(germany.body.audienceSizeLowerBound);
    expect(narrower.body.audienceSizeLowerBound).to.be.above(0);
    const refused = await estimate({ targeting: { geoLocations: { countries: ['DE'] }, interests: [{ id: '999' }] } });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ code: 'ad_platform_rejected' });
    expect(refused.body.detail).to.include('999');
  });
});
