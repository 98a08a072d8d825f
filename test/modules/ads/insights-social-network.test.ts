import { expect } from 'chai';
import { adDay, reachOf } from '../../../src/sandbox/ad-figures.js';
import { daysBetween } from '../../../src/sandbox/insights-series.js';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { until } from '../../support/wait.js';
import { type ConnectedAdAccount, connectMetaAdAccount, MarketingInsightsPeople } from './insights-support.js';

describeApi('getAdInsights — GET /ads/insights on social_network', (t) => {
  const people = new MarketingInsightsPeople(() => t.app);
  let ad: ConnectedAdAccount;
  beforeEach(async () => {
    ad = await connectMetaAdAccount(t.app, t.owner);
  });
  const insights = (query: Record<string, string>) =>
    t.app.api.get(`/ads/insights?${new URLSearchParams({ adAccountId: ad.adAccountId, ...query })}`, { token: t.owner.key });
  const week = { since: '2026-11-01', until: '2026-11-07' };

  it('reads the ad account by day: counts as numbers, spend in euro cents (the Graph gives a decimal string of euros), only the fields asked', async () => {
    const answer = await insights({ ...week, timeIncrement: 'day', fields: 'impressions,reach,clicks,spend,ctr,cpc' });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ adAccountId: ad.adAccountId, currency: 'EUR', nextCursor: null });
    expect(answer.body.unsupported).to.deep.equal([]);
    const days = daysBetween(week.since, week.until);
    expect(answer.body.data.map((row: { dateStart: string }) => row.dateStart)).to.deep.equal(days);
    const figures = adDay(ad.platformAdAccountId, days[0]!);
    const first = answer.body.data[0];
    expect(first).to.deep.include({
      objectId: ad.platformAdAccountId,
      level: 'account',
      dateStart: days[0],
      dateStop: days[0],
      impressions: figures.impressions,
      reach: reachOf(figures, 1),
      clicks: figures.clicks,
      spend: figures.spend,
    });
    expect(first.cpc).to.be.closeTo(figures.spend / figures.clicks, 0.0001);
    expect(first.ctr).to.be.closeTo((figures.clicks / figures.impressions) * 100, 0.0001);
    expect(first).to.not.have.any.keys('cpm', 'actions', 'frequency');
  });

  it('splits rows by age and gender, and answers 422 ad_insights_unsupported for breakdowns the platform does not combine', async () => {
    const split = await insights({ ...week, breakdowns: 'age,gender', fields: 'impressions' });
    expect(split.status).to.equal(200);
    expect(split.body.data).to.have.length(18);
    expect(split.body.data[0].breakdowns).to.have.keys('age', 'gender');
    const refused = await insights({ ...week, breakdowns: 'age,country' });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ code: 'ad_insights_unsupported' });
    expect(refused.body.errors[0]).to.include({ path: 'query/breakdowns' });
    expect(refused.body.detail).to.match(/age and gender go together/);
  });

  it('answers 422 ad_breakdown_not_enabled for an opt-in breakdown until the ad account enables it at the platform', async () => {
    const refused = await insights({ ...week, breakdowns: 'impression_device' });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ code: 'ad_breakdown_not_enabled' });
    expect(refused.body.detail).to.include('impression_device');
    await people.enableBreakdown(ad.platformAdAccountId, 'impression_device');
    const split = await insights({ ...week, breakdowns: 'impression_device', fields: 'impressions' });
    expect(split.status).to.equal(200);
    expect(split.body.data.map((row: { breakdowns: { impressionDevice: string } }) => row.breakdowns.impressionDevice)).to.have.members([
      'iphone',
      'android_smartphone',
      'desktop',
    ]);
  });

  it('names reach and frequency unsupported by hour of the day, and leaves them out of the rows instead of a zero', async () => {
    await people.enableBreakdown(ad.platformAdAccountId, 'hourly_stats_aggregated_by_advertiser_time_zone');
    const answer = await insights({
      since: '2026-11-01',
      until: '2026-11-01',
      breakdowns: 'hourly',
      fields: 'impressions,reach,frequency',
      limit: '50',
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.unsupported.map((u: { field: string }) => u.field)).to.deep.equal(['reach', 'frequency']);
    expect(answer.body.data).to.have.length(24);
    expect(answer.body.data[14].breakdowns).to.deep.equal({ hour: '14:00' });
    for (const row of answer.body.data) expect(row).to.not.have.any.keys('reach', 'frequency');
  });

  it('counts actions in the attribution windows asked for', async () => {
    const answer = await insights({ ...week, fields: 'actions,conversions', attributionWindows: '7d_click,1d_view' });
    expect(answer.status).to.equal(200);
    const [link] = answer.body.data[0].actions;
    expect(link.actionType).to.equal('link_click');
    expect(link.byWindow['7d_click'] + link.byWindow['1d_view']).to.equal(link.value);
    expect(answer.body.data[0].conversions[0].actionType).to.equal('offsite_conversion.fb_pixel_purchase');
  });

  it('runs a report asked for asynchronously on the platform: 202 with where to read it, then the same rows as a read at once', async () => {
    const query = { ...week, timeIncrement: 'day', fields: 'impressions,spend' };
    const started = await insights({ ...query, async: 'true' });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body).to.include({ adAccountId: ad.adAccountId, status: 'queued', percentComplete: 0 });
    expect(started.body.location).to.equal(`/ads/insights/reports/${started.body.reportId}?adAccountId=${ad.adAccountId}`);
    const read = () => t.app.api.get(started.body.location, { token: t.owner.key });
    const running = await read();
    expect(running.status).to.equal(202);
    expect(running.headers.get('retry-after')).to.equal('5');
    const done = await until(read, { done: (answer) => answer.status === 200, what: 'the report ready' });
    expect(done.body.data).to.deep.equal((await insights(query)).body.data);
  });

  it('turns a read the platform will not answer at once (too many rows) into a report run, and keeps a report to its ad account', async () => {
    await people.limitInsightsRows(ad.platformAdAccountId, 3);
    const started = await insights({ ...week, timeIncrement: 'day' });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    const other = await connectMetaAdAccount(t.app, t.owner);
    const elsewhere = await t.app.api.get(`/ads/insights/reports/${started.body.reportId}?adAccountId=${other.adAccountId}`, {
      token: t.owner.key,
    });
    expect(elsewhere.status).to.equal(404);
    const forged = await t.app.api.get(`/ads/insights/reports/v1.AAAA.BBBB.CCCC?adAccountId=${ad.adAccountId}`, { token: t.owner.key });
    expect(forged.status).to.equal(404);
    const done = await until(() => t.app.api.get(started.body.location, { token: t.owner.key }), {
      done: (answer) => answer.status === 200,
      what: 'the report ready',
    });
    expect(done.body.data).to.have.length(7);
  });

  it('answers 400 for an object without its level, a level above the object, and half a date range', async () => {
    const queries: Array<Record<string, string>> = [
      { objectId: '120210000000000001' },
      { objectId: '1', objectLevel: 'adset', level: 'campaign' },
      { since: '2026-11-01' },
    ];
    for (const query of queries) {
      const answer = await insights(query);
      expect(answer.status, JSON.stringify(query)).to.equal(400);
      expect(answer.body.code).to.equal('validation_failed');
    }
  });

  itPagesThroughPlatform(t, 'getAdInsights', async (count) => {
    const days = daysBetween('2026-10-01', `2026-10-0${count}`);
    return {
      path: `/ads/insights?adAccountId=${ad.adAccountId}&since=${days[0]}&until=${days[days.length - 1]}&timeIncrement=day&fields=clicks`,
      ids: days,
      idOf: (row: { dateStart: string }) => row.dateStart,
    };
  });
});
