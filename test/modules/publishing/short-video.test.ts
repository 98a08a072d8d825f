import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectCreator, type Creator } from '../../support/sandbox/short-video.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';
import { fixture, png, uploadMedia, VIDEO } from './support.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The same video followed by a `free` box of `padding` bytes: a real MP4 of any size, for chunked uploads. */
function paddedVideo(padding: number): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(padding + 8);
  header.write('free', 4, 'latin1');
  return Buffer.concat([VIDEO, header, Buffer.alloc(padding)]);
}

describeApi('short_video — Direct Post of videos and photos', (t) => {
  const { shortVideo } = t.sandbox;
  beforeEach(() => shortVideo.configure({ processingMs: 0, unaudited: false, rateLimited: false, accessTokenTtlSeconds: 7200 }));

  async function post(
    creator: Creator,
    body: Record<string, unknown>,
    options: Record<string, unknown> = { privacyLevel: 'PUBLIC_TO_EVERYONE' },
  ) {
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { accountIds: [creator.accountId], publishNow: true, platformOptions: { short_video: options }, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return created.body.id as string;
  }

  it('posts a video: the bytes go up to the upload URL, the status is followed while it processes, and it is published once', async () => {
    const creator = await connectCreator(t.app, t.owner);
    await shortVideo.configure({ processingMs: 1500 });
    const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
    const id = await post(
      creator,
      { text: 'Pouring the winter blend #coffee', mediaIds: [video] },
      { privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true, coverTimestampMs: 500 },
    );

    const done = await waitForPost(t.app, t.owner, id, settled);
    const { posts, inits } = await shortVideo.onPlatform(creator.openId);
    expect(posts, JSON.stringify([done.targets[0], inits])).to.have.length(1);
    expect(posts[0]).to.include({
      kind: 'video',
      title: 'Pouring the winter blend #coffee',
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      sha256: sha256(VIDEO),
      size: VIDEO.length,
      contentType: 'video/mp4',
    });
    expect(inits).to.have.length(1);
    expect(inits[0]!.postInfo).to.deep.include({
      disable_duet: true,
      disable_comment: false,
      disable_stitch: false,
      video_cover_timestamp_ms: 500,
    });
    expect(done.status).to.equal('published');
    expect(done.targets[0]).to.include({
      status: 'published',
      attempts: 1,
      platformPostId: posts[0]!.id,
      url: `https://www.tiktok.com/@${creator.username}/video/${posts[0]!.id}`,
    });
    expect((await eventsOf(t.app, id)).map((event) => event.name)).to.include('post.published');
  });

  it('uploads a 21 MB video in two chunks (10 MB, then the remaining 11 MB), byte for byte', async () => {
    const creator = await connectCreator(t.app, t.owner);
    const bytes = paddedVideo(21_000_000 - VIDEO.length - 8);
    const video = await uploadMedia(t.app, t.owner, bytes, 'long.mp4');
    const done = await waitForPost(t.app, t.owner, await post(creator, { text: 'Long one.', mediaIds: [video] }), settled, 20_000);
    expect(done.status, JSON.stringify(done.targets[0].failure)).to.equal('published');
    const { posts, inits } = await shortVideo.onPlatform(creator.openId);
    expect(inits[0]!.chunks).to.deep.equal([10_000_000, 11_000_000]);
    expect(posts).to.have.length(1);
    expect(posts[0]).to.include({ size: 21_000_000, sha256: sha256(bytes) });
  });

  it('posts photos, which the platform pulls from their public URLs: the text as the description, a private post named by its publish_id', async () => {
    const creator = await connectCreator(t.app, t.owner);
    const photos = [
      await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'one.jpg'),
      await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'two.jpg'),
    ];
    const id = await post(creator, { text: 'Two cups, one morning.', mediaIds: photos }, { privacyLevel: 'SELF_ONLY', title: 'Mornings' });
    const done = await waitForPost(t.app, t.owner, id, settled);
    const { posts, inits } = await shortVideo.onPlatform(creator.openId);
    expect(posts).to.have.length(1);
    expect(posts[0]).to.include({ kind: 'photo', title: 'Mornings', description: 'Two cups, one morning.', privacyLevel: 'SELF_ONLY' });
    expect(done.status).to.equal('published');
    // A private post is never given a public id: the publish_id stands for it.
    expect(done.targets[0]).to.include({ platformPostId: inits[0]!.publishId, url: null });
  });

  it('refuses what the platform would not take, before anything is sent', async () => {
    const creator = await connectCreator(t.app, t.owner);
    const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
    const pngPhoto = await uploadMedia(t.app, t.owner, png(8, 8), 'cup.png');
    const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
    const small = await uploadMedia(t.app, t.owner, fixture('tiny.mp4'), 'tiny.mp4');
    const refused = async (body: Record<string, unknown>, options: Record<string, unknown> = { privacyLevel: 'SELF_ONLY' }) => {
      const response = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { accountIds: [creator.accountId], publishNow: true, platformOptions: { short_video: options }, ...body },
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(422);
      return response.body.errors.map((error: { path: string; code: string }) => `${error.path} ${error.code}`);
    };
    expect(await refused({ text: 'Words alone.' })).to.deep.equal(['body/mediaIds text_or_media_required']);
    expect(await refused({ mediaIds: [pngPhoto] })).to.deep.equal(['body/mediaIds/0 media_type']);
    expect(await refused({ mediaIds: [video, photo] })).to.deep.equal(['body/mediaIds media_count']);
    expect(await refused({ mediaIds: [small] })).to.deep.equal(['body/mediaIds/0 media_size']);
    // A video probed at 10 frames a second (the fixture at hand is too small for the platform, so its record stands in for one).
    const slow = await uploadMedia(t.app, t.owner, VIDEO, 'slow.mp4');
    await t.app.services.db('media').where({ id: slow }).update({ frameRate: 10 });
    expect(await refused({ mediaIds: [slow] })).to.deep.equal(['body/mediaIds/0 media_format']);
    expect(await refused({ mediaIds: [photo] }, { privacyLevel: 'SELF_ONLY', title: 'x'.repeat(91), disableDuet: true })).to.deep.equal([
      'body/platformOptions/short_video/title max_length',
      'body/platformOptions/short_video/disableDuet option_not_allowed',
    ]);
    expect(await refused({ mediaIds: [video], text: 'y'.repeat(2201) })).to.deep.equal(['body/text max_length']);
    expect(await refused({ mediaIds: [video] }, { privacyLevel: 'SELF_ONLY', coverTimestampMs: 5000 })).to.deep.equal([
      'body/platformOptions/short_video/coverTimestampMs option_not_allowed',
    ]);
    expect((await shortVideo.onPlatform(creator.openId)).inits).to.have.length(0);
  });

  it("a photo the platform may not pull from PUBLIC_URL (strict: this machine's address) fails permission_denied, naming PUBLIC_URL", async () => {
    const creator = await connectCreator(t.app, t.owner);
    const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
    await shortVideo.strictUrls(true);
    try {
      const done = await waitForPost(t.app, t.owner, await post(creator, { mediaIds: [photo] }, { privacyLevel: 'SELF_ONLY' }), settled);
      expect(done.status).to.equal('failed');
      expect(done.targets[0].failure).to.include({ code: 'permission_denied', platformCode: 'url_ownership_unverified' });
      expect(done.targets[0].failure.message).to.match(/PUBLIC_URL, whose domain is not verified for the app/);
    } finally {
      await shortVideo.strictUrls(false);
    }
  });

  describe("the creator's settings, read first (creator_info)", () => {
    it('an unaudited app may post only SELF_ONLY: a public post is refused as permission_denied, saying so, and nothing is sent', async () => {
      const creator = await connectCreator(t.app, t.owner);
      await shortVideo.configure({ unaudited: true });
      const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
      const done = await waitForPost(t.app, t.owner, await post(creator, { mediaIds: [video] }), settled);
      expect(done.status).to.equal('failed');
      expect(done.targets[0].failure).to.include({
        code: 'permission_denied',
        platformCode: 'unaudited_client_can_only_post_to_private_accounts',
      });
      expect(done.targets[0].failure.message).to.match(/not audited .* only privately \(privacyLevel SELF_ONLY\)/);
      expect((await shortVideo.onPlatform(creator.openId)).inits).to.have.length(0);

      const privately = await waitForPost(
        t.app,
        t.owner,
        await post(creator, { mediaIds: [video] }, { privacyLevel: 'SELF_ONLY' }),
        settled,
      );
      expect(privately.status).to.equal('published');
    });

    it('refuses a privacy level the creator lacks, a video longer than they may post, and comments they turned off', async () => {
      const creator = await connectCreator(t.app, t.owner, {
        settings: { privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'], maxVideoPostDurationSec: 1, commentDisabled: true },
      });
      const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
      const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
      const failureOf = async (mediaIds: string[], options: Record<string, unknown>) =>
        (await waitForPost(t.app, t.owner, await post(creator, { mediaIds }, options), settled)).targets[0].failure;
      expect(await failureOf([photo], { privacyLevel: 'PUBLIC_TO_EVERYONE' })).to.include({
        code: 'permission_denied',
        platformCode: 'privacy_level_option_mismatch',
      });
      const tooLong = await failureOf([video], { privacyLevel: 'SELF_ONLY' });
      expect(tooLong).to.include({ code: 'media_invalid', action: 'edit_post' });
      expect(tooLong.message).to.match(/lasts 2 s; this creator may post videos of up to 1 s/);
      expect(await failureOf([photo], { privacyLevel: 'SELF_ONLY', disableComment: false })).to.include({ code: 'permission_denied' });
      expect((await shortVideo.onPlatform(creator.openId)).inits).to.have.length(0);
      // Left unset, comments follow the creator's setting: off.
      const followed = await waitForPost(
        t.app,
        t.owner,
        await post(creator, { mediaIds: [photo] }, { privacyLevel: 'SELF_ONLY' }),
        settled,
      );
      expect(followed.status).to.equal('published');
      expect((await shortVideo.onPlatform(creator.openId)).inits[0]!.postInfo).to.include({ disable_comment: true });
    });
  });
});
