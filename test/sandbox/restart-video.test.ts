import { expect } from 'chai';
import { Agent, fetch } from 'undici';
import { fixture, uploadMedia } from '../modules/publishing/support.js';
import { DEMO_ADVERTISERS } from '../../src/sandbox/short-video-ads/demo.js';
import { authorise } from '../support/sandbox/oauth.js';
import { connectCreator } from '../support/sandbox/short-video.js';
import { describeRestart } from './restartable.js';

describeRestart('sandbox — a restart under connected short-video accounts', (t) => {
  it("short_video: the creator's token still posts, and the new post gets a new id", async () => {
    const creator = await connectCreator(t.app, t.owner);
    const photo = async () => ({
      mediaIds: [await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg')],
      platformOptions: { short_video: { privacyLevel: 'SELF_ONLY', title: 'Winter blend' } },
    });
    const before = await t.publish(creator.accountId, 'Before the restart', await photo());

    await t.restart();

    const after = await t.publish(creator.accountId, 'After the restart', await photo());
    expect(after).to.not.equal(before);
    const posts = (await t.people.shortVideo.onPlatform(creator.openId)).posts.map((post) => post.description);
    expect(posts).to.have.members(['Before the restart', 'After the restart']);
  });

  it("short_video_ads: the advertiser's token the service keeps is still accepted", async () => {
    const outcome = await authorise(t.app, t.owner, 'short_video_ads');
    const [adAccountId] = outcome.searchParams.get('adAccountIds')!.split(',');
    const row = await t.app.services.db('adAccounts').where({ id: adAccountId }).first();
    const { accessToken } = JSON.parse(t.app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string };

    await t.restart();

    const ids = encodeURIComponent(JSON.stringify([row.platformAdAccountId]));
    // On a connection of its own: the test's pooled ones went with the sandbox that stopped.
    const info = await fetch(`${t.app.services.sandboxUrl}/short_video_ads/open_api/v1.3/advertiser/info/?advertiser_ids=${ids}`, {
      headers: { 'Access-Token': accessToken },
      dispatcher: new Agent({ pipelining: 0 }),
    });
    const answer = (await info.json()) as { code: number; data: { list: Array<{ name: string }> } };
    expect(answer.code).to.equal(0);
    const granted = DEMO_ADVERTISERS.find((advertiser) => advertiser.advertiser_id === row.platformAdAccountId)!;
    expect(answer.data.list.map((advertiser) => advertiser.name)).to.deep.equal([granted.name]);
  });
});
