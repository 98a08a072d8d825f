import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';
import { until } from '../../support/wait.js';
import { testBoostSettings } from './boost-support.js';
import { sparkBody } from './spark-support.js';

/** Each step of a Spark boost and the objects TikTok holds once it is made (the post's step makes none). */
const STEPS = [
  { step: 'campaign', objects: 1 },
  { step: 'adset', objects: 2 },
  { step: 'creative', objects: 2 },
  { step: 'ad', objects: 3 },
];

describeApi(
  'boostPost on short_video_ads — the worker killed at each step of a Spark boost, and another taking over',
  { settings: testBoostSettings(1) },
  (t) => {
    const { shortVideoAds } = t.sandbox;
    const read = (boostId: string) => t.app.api.get(`/ads/boosts/${boostId}`, { token: t.owner.key });
    const onTikTok = async (advertiserId: string) => {
      const tree = await shortVideoAds.onPlatform(advertiserId);
      return [...tree.campaigns, ...tree.adgroups, ...tree.ads];
    };

    for (const [index, { step, objects }] of STEPS.entries()) {
      it(`killed once the ${step} step was made, before recording it: the next worker completes the boost, each object made once`, async function () {
        this.timeout(30_000);
        const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
        const { authCode, itemId } = await shortVideoAds.sparkCode();
        const worker = await CrashableWorker.standIn(t.app, 'adBoosts', { dieAfter: index });
        try {
          const answered = await t.app.api.post('/ads/boost', {
            token: t.owner.key,
            body: sparkBody(adAccountId, itemId, { sparkAuthCode: authCode }),
          });
          expect(answered.status, answered.text).to.equal(202);
          await until(() => worker.dead, { what: 'the worker to die after the step' });
          const recorded = (await read(answered.body.id)).body;
          expect(recorded.steps[index].state, 'the dead worker recorded nothing of its step').to.equal('sending');
          expect(await onTikTok(advertiser.advertiser_id), 'TikTok has the step').to.have.length(objects);

          await worker.replace();
          const done = await until(() => read(answered.body.id), {
            done: (answer) => answer.body.status === 'active',
            what: 'the boost completed by the next worker',
            timeoutMs: 20_000,
          });
          expect(done.body.steps.map((one: any) => one.state)).to.deep.equal(['done', 'done', 'done', 'done']);
          expect(done.body.creativeId).to.equal(itemId);
          const made = await onTikTok(advertiser.advertiser_id);
          expect(made.map((object) => object.operation_status)).to.deep.equal(['ENABLE', 'ENABLE', 'ENABLE']);
        } finally {
          await worker.stop();
        }
      });
    }
  },
);
