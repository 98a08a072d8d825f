/**
 * Ads benchmark on short_video_ads: a campaign tree with 1,000 ads (1 campaign, 10 ad groups, 100 ads each) made
 * on the sandbox through the campaign capability, then read over HTTP `reads` times each (the first cold: nothing
 * read before; the others warm): the campaign as a tree (`GET /ads/tree`: the campaign, its 10 ad groups and 1,000
 * ads, read live page by page), and a 28-day daily insights read (`GET /ads/insights`) at the campaign's level (28
 * rows adding up 1,000 ads a day) and at its ads' (the first page of 100 of 28,000 rows). Nothing is cached by the
 * service, so warm differs from cold only by what the platform and the connections keep. Then 200 ads created
 * concurrently over HTTP (`POST /ads/ads`, each with an Idempotency-Key, through the platform-write ledger), and the
 * same 200 requests again (replays under the same keys): throughput, and the ads on the platform counted for
 * duplicates. No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/ads-tree-insights.ts [ads=1000] [reads=20] [concurrent=200]
 */
import { idOf } from '../../src/lib/ids.js';
import { withConnectedAccount } from '../../src/modules/accounts/platform-call.js';
import type { AdCampaigns, AdsAccount } from '../../src/platforms/capabilities/ad-campaigns.js';
import { SANDBOX_ADS_APP } from '../../src/sandbox/short-video-ads/demo.js';
import { benchOwnerKey, connectAdvertiserByConsent, forkSandbox, percentile, startBenchService } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const ADS = Number(process.argv[2] ?? 1000);
  const READS = Number(process.argv[3] ?? 20);
  const CONCURRENT = Number(process.argv[4] ?? 200);
  const sandbox = await forkSandbox();
  const { api, call, services, stop } = await startBenchService({
    SHORT_VIDEO_ADS_APP_ID: SANDBOX_ADS_APP.appId,
    SHORT_VIDEO_ADS_APP_SECRET: SANDBOX_ADS_APP.secret,
    SHORT_VIDEO_ADS_AUTH_URL: `${sandbox.url}/short_video_ads/portal/auth`,
    SHORT_VIDEO_ADS_API_URL: `${sandbox.url}/short_video_ads/open_api/v1.3`,
  });
  const control = async (path: string, body: unknown) =>
    (await (
      await fetch(`${sandbox.url}/_sandbox/short_video_ads/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as any;
  try {
    const key = await benchOwnerKey(call);
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;
    const advertiser = await control('advertisers', { name: 'Bench Ads', currency: 'USD', status: 'STATUS_ENABLE' });
    const adAccountId = await connectAdvertiserByConsent(call, api, key, profileId, advertiser.advertiser_id);
    const { id: ownerId } = (await services.db('owners').first('id')) as { id: string };
    const principal = { kind: 'session' as const, ownerId, sessionId: 'bench' };
    const run = <T>(work: (campaigns: AdCampaigns, account: AdsAccount) => Promise<T>) =>
      withConnectedAccount(services, principal, { adAccountId: idOf('adacc', adAccountId) }, 'adCampaigns', (adapter, account, row) =>
        work(adapter.adCampaigns, { ...account, currency: row.currency }),
      );

    const madeAt = performance.now();
    const { campaignId, groupIds } = await run(async (campaigns, account) => {
      const campaign = await campaigns.create(account, 'campaign', {
        name: 'Bench campaign',
        objective: 'OUTCOME_TRAFFIC',
        status: 'ACTIVE',
        specialAdCategories: [],
        specialAdCategoryCountries: [],
        isAdsetBudgetSharingEnabled: false,
      });
      const groups = [];
      for (let g = 0; g < 10; g += 1) {
        groups.push(
          await campaigns.create(account, 'adset', {
            campaignId: campaign.id,
            name: `Group ${g}`,
            status: 'ACTIVE',
            dailyBudget: 2550,
            billingEvent: 'LINK_CLICKS',
            optimizationGoal: 'LINK_CLICKS',
            targeting: { geoLocations: { countries: ['US'] }, ageMin: 18, ageMax: 65 },
          }),
        );
      }
      for (let a = 0; a < ADS; a += 1) {
        await campaigns.create(account, 'ad', { adsetId: groups[a % 10]!.id, creativeId: 'v1', name: `Ad ${a}`, status: 'ACTIVE' });
      }
      return { campaignId: campaign.id, groupIds: groups.map((group) => group.id) };
    });
    console.log(`tree: 1 campaign, 10 ad groups, ${ADS} ads made in ${((performance.now() - madeAt) / 1000).toFixed(1)} s`);

    const treeTimes: number[] = [];
    let treeAds = 0;
    for (let i = 0; i < READS; i += 1) {
      const at = performance.now();
      const tree = await call('GET', `/ads/tree?${new URLSearchParams({ adAccountId, campaignId })}`, key);
      treeTimes.push(performance.now() - at);
      treeAds = (tree.adsets as Array<{ ads: unknown[] }>).reduce((sum, group) => sum + group.ads.length, 0);
    }
    const warmTree = treeTimes.slice(1).sort((a, b) => a - b);
    console.log(
      `GET /ads/tree (10 ad groups, ${treeAds} ads): cold ${treeTimes[0]!.toFixed(1)} ms; warm p50 ${percentile(warmTree, 50).toFixed(1)} ms, p99 ${percentile(warmTree, 99).toFixed(1)} ms`,
    );

    const read = async (level: string) => {
      const at = performance.now();
      const query = new URLSearchParams({
        adAccountId,
        objectId: campaignId,
        objectLevel: 'campaign',
        level,
        since: '2026-10-04',
        until: '2026-10-31',
        timeIncrement: 'day',
        fields: 'impressions,clicks,spend,ctr,cpc',
        limit: '100',
      });
      const answer = await call('GET', `/ads/insights?${query}`, key);
      return { ms: performance.now() - at, rows: (answer.data as unknown[]).length };
    };
    for (const level of ['campaign', 'ad']) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < READS; i += 1) {
        const one = await read(level);
        times.push(one.ms);
        rows = one.rows;
      }
      const warm = times.slice(1).sort((a, b) => a - b);
      console.log(
        `insights 28 days daily, level ${level} (${rows} rows a page): cold ${times[0]!.toFixed(1)} ms; warm p50 ${percentile(warm, 50).toFixed(1)} ms, p99 ${percentile(warm, 99).toFixed(1)} ms`,
      );
    }

    // Over HTTP with an Idempotency-Key each, then the same requests again: the replays must make nothing.
    const createAd = async (i: number) => {
      const response = await fetch(`${api}/ads/ads`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, 'Idempotency-Key': `bench-ad-${i}` },
        body: JSON.stringify({ adAccountId, adsetId: groupIds[i % 10]!, creativeId: 'v1', name: `Concurrent ${i}`, status: 'ACTIVE' }),
      });
      await response.arrayBuffer();
      return response.status;
    };
    const wave = async (what: string) => {
      const at = performance.now();
      const statuses = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => createAd(i)));
      const seconds = (performance.now() - at) / 1000;
      const created = statuses.filter((status) => status === 201).length;
      const others = statuses.filter((status) => status !== 201);
      console.log(
        `${CONCURRENT} POST /ads/ads concurrently (${what}): ${created} answered 201 in ${seconds.toFixed(2)} s (${(created / seconds).toFixed(0)}/s)${others.length ? `; other statuses ${[...new Set(others)].join(', ')} (${others.length})` : ''}`,
      );
    };
    await wave('new keys');
    await wave('the same keys again');
    const tree = await control('tree', { advertiserId: advertiser.advertiser_id });
    const names = (tree.ads as Array<{ ad_name: string }>).map((made) => made.ad_name).filter((name) => name.startsWith('Concurrent '));
    console.log(`on the platform: ${names.length} ads named Concurrent …, duplicates ${names.length - new Set(names).size}`);
  } finally {
    await stop();
    sandbox.stop();
  }
}
