import { expect } from 'chai';
import { DateTime } from 'luxon';
import { storedAccount } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { connectLocations } from '../../support/sandbox/search-suite.js';
import { connectCreator } from '../../support/sandbox/short-video.js';
import { connectThreads } from '../../support/sandbox/social-threads.js';
import { until } from '../../support/wait.js';
import { SNAPSHOT_JOB, takeSnapshots } from '../../../src/modules/analytics/snapshots.js';
import { dailyFigure, daysBetween } from '../../../src/sandbox/insights-series.js';

describeApi('analytics — threads, short video, business profiles', (t) => {
  const { shortVideo, socialThreads } = t.sandbox;
  const get = (path: string) => t.app.api.get(path, { token: t.owner.key });
  const followers = (accountId: string) => get(`/analytics/${accountId}/followers?from=2026-10-30&to=2026-11-02`);

  it('threads: views day by day, likes read a day at a time, both added up by the service into weeks; reach named unsupported', async () => {
    const person = await connectThreads(t.app, t.owner);
    const answer = await get(
      `/accounts/${person.accountId}/insights?metrics=views,likes,reach&period=week&since=2026-10-10&until=2026-10-12`,
    );
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ timeZone: 'UTC' });
    const week = (metric: string, date: string) =>
      daysBetween(DateTime.fromISO(date).minus({ days: 6 }).toISODate()!, date).reduce(
        (sum, day) => sum + dailyFigure(person.userId, metric, day),
        0,
      );
    const days = ['2026-10-10', '2026-10-11', '2026-10-12'];
    expect(answer.body.series).to.deep.equal([
      { metric: 'views', values: days.map((date) => ({ date, value: week('views', date) })) },
      { metric: 'likes', values: days.map((date) => ({ date, value: week('likes', date) })) },
    ]);
    expect(answer.body.unsupported.map((u: { metric: string }) => u.metric)).to.deep.equal(['reach']);
  });

  it('threads followers across days: no data before the first snapshot, one snapshot per day whatever runs again', async () => {
    const person = await connectThreads(t.app, t.owner);
    const before = await followers(person.accountId);
    expect(before.status, JSON.stringify(before.body)).to.equal(200);
    expect(before.body).to.include({ source: 'snapshots', firstSnapshotOn: null });
    expect(before.body.series.map((p: { followers: number | null }) => p.followers)).to.deep.equal([null, null, null, null]);

    await socialThreads.setFollowers(person.userId, 1200);
    await t.app.services.scheduler.now(SNAPSHOT_JOB, { day: '2026-11-01', accountId: person.accountId });
    const first = await until(async () => (await followers(person.accountId)).body, {
      done: (body) => body.firstSnapshotOn === '2026-11-01',
      what: 'the first snapshot',
    });
    await socialThreads.setFollowers(person.userId, 1230);
    await takeSnapshots(t.app.services, { day: '2026-11-02', accountId: person.accountId });
    await socialThreads.setFollowers(person.userId, 9999);
    await takeSnapshots(t.app.services, { day: '2026-11-02', accountId: person.accountId });
    const after = await followers(person.accountId);
    expect(first.series[2]).to.deep.equal({ date: '2026-11-01', followers: 1200, gained: null, lost: null });
    expect(after.body.series.map((p: { followers: number | null }) => p.followers)).to.deep.equal([null, null, 1200, 1230]);

    const summary = await get(`/analytics/${person.accountId}/summary?from=2026-11-02&to=2026-11-02`);
    expect(summary.body.followers).to.deep.equal({ value: 1230, previous: 1200, change: 0.025 });
  });

  it('short video: counts need user.info.stats (permission_missing naming it); with it, daily snapshots of the follower count and a video’s lifetime figures', async () => {
    const without = await connectCreator(t.app, t.owner, { scope: 'user.info.basic,video.publish,video.upload,video.list' });
    const refused = await followers(without.accountId);
    expect([refused.status, refused.body.code, refused.body.scope]).to.deep.equal([422, 'permission_missing', 'user.info.stats']);

    const creator = await connectCreator(t.app, t.owner);
    await shortVideo.setFollowers(creator.openId, 4321);
    await takeSnapshots(t.app.services, { day: '2026-10-31', accountId: creator.accountId });
    const history = await followers(creator.accountId);
    expect(history.body.series.map((p: { followers: number | null }) => p.followers)).to.deep.equal([null, 4321, null, null]);
    const account = await get(`/accounts/${creator.accountId}/insights?metrics=views`);
    expect(account.body.series).to.deep.equal([]);
    expect(account.body.unsupported[0].reason).to.include('no account views');

    const { id } = await shortVideo.postInApp(creator.openId, 'Latte art');
    const post = await get(`/accounts/${creator.accountId}/post-insights?platformPostId=${id}&metrics=views,likes,reach`);
    expect(post.status, JSON.stringify(post.body)).to.equal(200);
    expect(post.body.metrics.map((m: { metric: string }) => m.metric)).to.deep.equal(['views', 'likes']);
    for (const { value } of post.body.metrics) expect(value).to.be.a('number');
    expect(post.body.unsupported.map((u: { metric: string }) => u.metric)).to.deep.equal(['reach']);
    expect(post.body.publishedAt).to.be.a('string');
  });

  it('business profiles: impressions of four surfaces added up, clicks by day, the last three days not settled yet (null); no followers, no post figures', async () => {
    const [accountId] = await connectLocations(t.app, t.owner);
    const location = (await storedAccount(t.app, accountId!)).row.platformAccountId.split('/').slice(2).join('/');
    const answer = await get(`/accounts/${accountId}/insights?metrics=impressions,website_clicks&since=2026-10-01&until=2026-10-02`);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const surfaces = ['DESKTOP_MAPS', 'DESKTOP_SEARCH', 'MOBILE_MAPS', 'MOBILE_SEARCH'];
    const impressions = (date: string) => surfaces.reduce((sum, s) => sum + dailyFigure(location, `BUSINESS_IMPRESSIONS_${s}`, date), 0);
    expect(answer.body.series).to.deep.equal([
      { metric: 'impressions', values: ['2026-10-01', '2026-10-02'].map((date) => ({ date, value: impressions(date) })) },
      {
        metric: 'website_clicks',
        values: ['2026-10-01', '2026-10-02'].map((date) => ({ date, value: dailyFigure(location, 'WEBSITE_CLICKS', date) })),
      },
    ]);
    const today = DateTime.utc();
    const recent = await get(
      `/accounts/${accountId}/insights?metrics=call_clicks&since=${today.minus({ days: 5 }).toISODate()}&until=${today.toISODate()}`,
    );
    expect(recent.body.series[0].values.map((v: { value: number | null }) => v.value === null)).to.deep.equal([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);

    const noFollowers = await get(`/analytics/${accountId}/followers`);
    expect([noFollowers.status, noFollowers.body.code]).to.deep.equal([422, 'account_platform_unsupported']);
    const noPosts = await get(`/accounts/${accountId}/post-insights?platformPostId=localPosts/1`);
    expect([noPosts.status, noPosts.body.code]).to.deep.equal([422, 'account_platform_unsupported']);
  });
});
