import { expect } from 'chai';
import { fixture, uploadMedia } from '../modules/publishing/support.js';
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
});
