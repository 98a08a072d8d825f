import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectNewPage, connectPages, pendingConnection } from '../../support/sandbox/social-network.js';
import { dailyFigure, daysBetween, followersOn, windowFigure } from '../../../src/sandbox/insights-series.js';
import { DateTime } from 'luxon';
import { postNow, settled, waitForPost } from '../publishing/posts-support.js';

const week = daysBetween('2026-10-01', '2026-10-07');

describeApi('analytics — social network pages (Graph v26)', (t) => {
  const { socialNetwork } = t.sandbox;
  const insights = (accountId: string, query: string) => t.app.api.get(`/accounts/${accountId}/insights?${query}`, { token: t.owner.key });

  it('maps each metric to the page metric the Graph still gives, day by day, and names removed ones unsupported with why, never 0', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const answer = await insights(page.accountId, 'since=2026-10-01&until=2026-10-07');
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ period: 'day', since: '2026-10-01', until: '2026-10-07', timeZone: 'America/Los_Angeles' });
    const series = Object.fromEntries(answer.body.series.map((s: { metric: string; values: unknown[] }) => [s.metric, s.values]));
    expect(series.views).to.deep.equal(week.map((date) => ({ date, value: dailyFigure(page.pageId, 'page_media_view', date) })));
    expect(series.reach).to.deep.equal(
      week.map((date) => ({ date, value: dailyFigure(page.pageId, 'page_total_media_view_unique', date) })),
    );
    expect(series.followers).to.deep.equal(week.map((date) => ({ date, value: followersOn(page.pageId, date) })));
    expect(Object.keys(series)).to.have.members([
      'followers',
      'followers_gained',
      'followers_lost',
      'reach',
      'views',
      'engagement',
      'likes',
      'clicks',
      'profile_views',
    ]);
    const unsupported = Object.fromEntries(answer.body.unsupported.map((u: { metric: string; reason: string }) => [u.metric, u.reason]));
    expect(Object.keys(unsupported)).to.have.members(['impressions', 'comments', 'shares']);
    expect(unsupported.impressions).to.include('2025-11-15').and.include('views');
  });

  it('windows: the platform computes week for flows and uniques; a level (followers) it gives daily is taken at the window’s last day', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const answer = await insights(page.accountId, 'metrics=followers,reach,views&period=week&since=2026-10-01&until=2026-10-03');
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const [followers, reach, views] = answer.body.series;
    const days = ['2026-10-01', '2026-10-02', '2026-10-03'];
    expect(followers.values).to.deep.equal(days.map((date) => ({ date, value: followersOn(page.pageId, date) })));
    expect(reach.values).to.deep.equal(
      days.map((date) => ({ date, value: windowFigure(page.pageId, 'page_total_media_view_unique', date, 7, true) })),
    );
    expect(views.values).to.deep.equal(days.map((date) => ({ date, value: windowFigure(page.pageId, 'page_media_view', date, 7, false) })));
  });

  it('a metric the platform removed since: the call is answered without it, it is named unsupported with the refusal, and it is not asked again at this version', async () => {
    const page = await connectNewPage(t.app, t.owner);
    await socialNetwork.removeMetric('page_views_total');
    const before = await socialNetwork.insightsCalls(page.pageId);
    const answer = await insights(page.accountId, 'metrics=views,profile_views,engagement&since=2026-09-01&until=2026-09-03');
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.series.map((s: { metric: string }) => s.metric)).to.deep.equal(['views', 'engagement']);
    expect(answer.body.series[1].values[0]).to.deep.equal({
      date: '2026-09-01',
      value: dailyFigure(page.pageId, 'page_post_engagements', '2026-09-01'),
    });
    expect(answer.body.unsupported).to.have.length(1);
    expect(answer.body.unsupported[0].metric).to.equal('profile_views');
    expect(answer.body.unsupported[0].reason).to.include('page_views_total').and.include('valid insights metric');
    // Refused whole, then halved until the dead metric was found: 5 calls for 3 metrics.
    expect((await socialNetwork.insightsCalls(page.pageId)) - before).to.equal(5);

    const again = await insights(page.accountId, 'metrics=views,profile_views&since=2026-08-01&until=2026-08-03');
    expect(again.body.unsupported.map((u: { metric: string }) => u.metric)).to.deep.equal(['profile_views']);
    expect((await socialNetwork.insightsCalls(page.pageId)) - before).to.equal(6);
  });

  it('a warm read makes no platform call and says when the figures were read; another window is read cold', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const query = 'metrics=views,reach&since=2026-10-10&until=2026-10-20';
    const cold = await insights(page.accountId, query);
    const calls = await socialNetwork.insightsCalls(page.pageId);
    expect(calls).to.equal(1);
    const warm = await insights(page.accountId, query);
    expect(warm.body).to.deep.equal(cold.body);
    expect(await socialNetwork.insightsCalls(page.pageId)).to.equal(calls);
    await insights(page.accountId, `${query}&period=days_28`);
    expect(await socialNetwork.insightsCalls(page.pageId)).to.equal(calls + 1);
  });

  it('followers: the page’s own history, with gained and lost each day', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const answer = await t.app.api.get(`/analytics/${page.accountId}/followers?from=2026-10-01&to=2026-10-07`, { token: t.owner.key });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ source: 'platform', firstSnapshotOn: null });
    const gained = (date: string) => 5 + (dailyFigure(page.pageId, 'follows', date) % 20);
    expect(answer.body.series).to.deep.equal(
      week.map((date) => ({ date, followers: followersOn(page.pageId, date), gained: gained(date), lost: gained(date) - 2 })),
    );
  });

  it('summary over 28 days: views (impressions null, for the insights answer’s reason), the platform’s 28-day reach, engagement and its rate by views, each against the previous 28 days; warm, no call', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const answer = await t.app.api.get(`/analytics/${page.accountId}/summary?from=2026-10-04&to=2026-10-31`, { token: t.owner.key });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ previousFrom: '2026-09-06', previousTo: '2026-10-03' });
    const sum = (metric: string, since: string, until: string) =>
      daysBetween(since, until).reduce((total, date) => total + dailyFigure(page.pageId, metric, date), 0);
    const views = sum('page_media_view', '2026-10-04', '2026-10-31');
    const engagement = sum('page_post_engagements', '2026-10-04', '2026-10-31');
    expect(answer.body.views.value).to.equal(views);
    expect(answer.body.views.previous).to.equal(sum('page_media_view', '2026-09-06', '2026-10-03'));
    expect(answer.body.impressions).to.deep.equal({ value: null, previous: null, change: null });
    const insights = await t.app.api.get(`/accounts/${page.accountId}/insights?metrics=impressions&since=2026-10-04&until=2026-10-31`, {
      token: t.owner.key,
    });
    expect(answer.body.unsupported).to.deep.equal(insights.body.unsupported);
    expect(answer.body.engagement.value).to.equal(engagement);
    expect(answer.body.engagementRate.value).to.equal(Math.round((engagement / views) * 10_000) / 10_000);
    expect(answer.body.reach).to.include({
      value: windowFigure(page.pageId, 'page_total_media_view_unique', '2026-10-31', 28, true),
      previous: windowFigure(page.pageId, 'page_total_media_view_unique', '2026-10-03', 28, true),
    });
    expect(answer.body.followers).to.include({
      value: followersOn(page.pageId, '2026-10-31'),
      previous: followersOn(page.pageId, '2026-10-03'),
    });
    expect(answer.body.posts).to.deep.equal({ value: 0, previous: 0, change: null });
    expect(answer.body.unsupported.map((u: { metric: string }) => u.metric)).to.deep.equal(['impressions']);
    const calls = await socialNetwork.insightsCalls(page.pageId);
    expect(
      (await t.app.api.get(`/analytics/${page.accountId}/summary?from=2026-10-04&to=2026-10-31`, { token: t.owner.key })).body,
    ).to.deep.equal(answer.body);
    expect(await socialNetwork.insightsCalls(page.pageId)).to.equal(calls);

    const tenDays = await t.app.api.get(`/analytics/${page.accountId}/summary?from=2026-10-22&to=2026-10-31`, { token: t.owner.key });
    expect(tenDays.body.reach).to.deep.equal({ value: null, previous: null, change: null });
    expect(tenDays.body.unsupported.map((u: { metric: string }) => u.metric)).to.deep.equal(['impressions', 'reach']);
  });

  it('a post’s lifetime figures by the platform’s id: reach and reactions; post views, removed in 2026, named unsupported', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const { id } = await socialNetwork.postInApp(page.pageId, 'Autumn menu');
    const answer = await t.app.api.get(`/accounts/${page.accountId}/post-insights?platformPostId=${id}&metrics=reach,likes,views`, {
      token: t.owner.key,
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ postId: null, platformPostId: id });
    expect(answer.body.metrics).to.deep.equal([
      { metric: 'reach', value: dailyFigure(id, 'post_total_media_view_unique', 'lifetime') },
      { metric: 'likes', value: dailyFigure(id, 'like', 'lifetime') + (dailyFigure(id, 'love', 'lifetime') % 50) },
    ]);
    expect(answer.body.unsupported.map((u: { metric: string }) => u.metric)).to.deep.equal(['views']);
    const missing = await t.app.api.get(`/accounts/${page.accountId}/post-insights?platformPostId=${page.pageId}_999`, {
      token: t.owner.key,
    });
    expect([missing.status, missing.body.code]).to.deep.equal([404, 'not_found']);
  });

  it('a post’s comments and shares, which the page’s insights say come per post, are the post’s own counts', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const pageLevel = await t.app.api.get(`/accounts/${page.accountId}/insights?metrics=comments&since=2026-10-04&until=2026-10-05`, {
      token: t.owner.key,
    });
    expect(pageLevel.body.unsupported[0].reason).to.include('post-insights gives them per post');
    const { id } = await socialNetwork.postInApp(page.pageId, 'Autumn menu', { shares: 4, comments: ['Yum', 'When?', 'Booked'] });
    const answer = await t.app.api.get(`/accounts/${page.accountId}/post-insights?platformPostId=${id}&metrics=comments,shares,reach`, {
      token: t.owner.key,
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.metrics).to.deep.equal([
      { metric: 'comments', value: 3 },
      { metric: 'shares', value: 4 },
      { metric: 'reach', value: dailyFigure(id, 'post_total_media_view_unique', 'lifetime') },
    ]);
    expect(answer.body.unsupported).to.deep.equal([]);
    const unshared = await socialNetwork.postInApp(page.pageId, 'Quiet day');
    const none = await t.app.api.get(`/accounts/${page.accountId}/post-insights?platformPostId=${unshared.id}&metrics=comments,shares`, {
      token: t.owner.key,
    });
    expect(none.body.metrics).to.deep.equal([
      { metric: 'comments', value: 0 },
      { metric: 'shares', value: 0 },
    ]);
  });

  it('posts come from the publishing records; a post’s figures by our post id', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const created = await postNow(t.app, t.owner, { text: 'Open on Sunday', accountIds: [page.accountId] });
    const post = await waitForPost(t.app, t.owner, created.id, settled);
    expect(post.status).to.equal('published');
    const today = DateTime.now().setZone('America/Los_Angeles');
    const summary = await t.app.api.get(
      `/analytics/${page.accountId}/summary?from=${today.minus({ days: 6 }).toISODate()}&to=${today.toISODate()}`,
      { token: t.owner.key },
    );
    expect(summary.body.posts).to.deep.equal({ value: 1, previous: 0, change: null });
    const figures = await t.app.api.get(`/accounts/${page.accountId}/post-insights?postId=${post.id}&metrics=reach`, {
      token: t.owner.key,
    });
    expect(figures.status, JSON.stringify(figures.body)).to.equal(200);
    const platformPostId = post.targets[0].platformPostId;
    expect(figures.body).to.include({ postId: post.id, platformPostId });
    expect(figures.body.metrics).to.deep.equal([
      { metric: 'reach', value: dailyFigure(platformPostId, 'post_total_media_view_unique', 'lifetime') },
    ]);
    expect(figures.body.publishedAt).to.equal(post.targets[0].publishedAt);
  });

  it('a throttled page: 429 platform_rate_limited with the wait from the business-use-case usage header, and no call to it before then', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const cachedQuery = 'metrics=views&since=2026-09-10&until=2026-09-11';
    expect((await insights(page.accountId, cachedQuery)).status).to.equal(200);
    await socialNetwork.failNextCall({
      code: 80001,
      message: '(#80001) There have been too many calls to this Page account.',
      headers: {
        'X-Business-Use-Case-Usage': JSON.stringify({
          [page.pageId]: [{ type: 'pages', call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: 7 }],
        }),
      },
    });
    const throttled = await insights(page.accountId, 'metrics=views&since=2026-10-01&until=2026-10-02');
    expect([throttled.status, throttled.body.code]).to.deep.equal([429, 'platform_rate_limited']);
    expect(Number(throttled.headers.get('retry-after'))).to.be.within(415, 420);

    // Until then the page is not called: figures not cached are refused at once, cached ones still answered.
    const calls = await socialNetwork.insightsCalls(page.pageId);
    const again = await insights(page.accountId, 'metrics=reach&since=2026-10-01&until=2026-10-02');
    expect([again.status, again.body.code]).to.deep.equal([429, 'platform_rate_limited']);
    expect(Number(again.headers.get('retry-after'))).to.be.within(400, 420);
    expect(await socialNetwork.insightsCalls(page.pageId)).to.equal(calls);
    expect((await insights(page.accountId, cachedQuery)).status).to.equal(200);
  });

  it('refusals: a page connected by someone who declined read_insights (permission_missing), a metric the platform never gave, more than 90 days, a chat account', async () => {
    const person = await socialNetwork.newPerson({ pages: 1, declineScopes: ['read_insights'] });
    const connected = await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), person.pageIds);
    const declined = await insights(connected.body.data[0].id, 'metrics=views');
    expect([declined.status, declined.body.code, declined.body.action]).to.deep.equal([422, 'permission_missing', 'reconnect_account']);
    expect(declined.body.detail).to.include('read_insights');

    const page = await connectNewPage(t.app, t.owner);
    const never = await insights(page.accountId, 'metrics=views,replies');
    expect([never.status, never.body.code, never.body.errors[0].path]).to.deep.equal([422, 'metric_not_supported', 'query/metrics/1']);
    const long = await insights(page.accountId, 'since=2026-01-01&until=2026-06-01');
    expect([long.status, long.body.code]).to.deep.equal([422, 'date_range_too_long']);

    const bot = await connectBot(t.app, t.owner);
    const chat = await t.app.api.get(`/analytics/${bot.accountId}/summary`, { token: t.owner.key });
    expect([chat.status, chat.body.code]).to.deep.equal([422, 'account_platform_unsupported']);
    expect(chat.body.detail).to.include('chat app');
  });
});
