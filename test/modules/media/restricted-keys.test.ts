import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { restrictedKey, type TestOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectNumber } from '../../support/sandbox/chatapp-cloud.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';
import { uploadPhoto } from '../publishing/support.js';

/**
 * Every place that takes a media id checks it against the caller's whole key: a key restricted to one profile
 * cannot send, reply with or design with another profile's image (nor learn its download link), even from an
 * account of its own profile.
 */
describeApi('media ids — a profile-restricted key reaches its own profiles only', (t) => {
  const { botchat, chatappCloud, socialNetwork } = t.sandbox;

  /** The owner's second profile, its photo, and a key restricted to the first profile. */
  async function otherProfilesPhoto(): Promise<{ key: string; photo: string }> {
    const other = await t.app.api.post('/profiles', { token: t.owner.session, body: { name: 'Other profile' } });
    expect(other.status).to.equal(201);
    const photo = await uploadPhoto(t.app, { ...t.owner, profileId: other.body.id } satisfies TestOwner);
    return { key: await restrictedKey(t.app.api, t.owner, [t.owner.profileId]), photo };
  }

  /** The 403 of a key outside the media's profile, with nothing of the media in it. */
  function refused(response: { status: number; text: string; body: any }, photo: string) {
    expect(response.status, response.text).to.equal(403);
    expect(response.body.code).to.equal('profile_out_of_scope');
    expect(response.text).not.to.include('token=');
    expect(response.text).not.to.include(photo);
  }

  it('POST /accounts/{id}/messages refuses another profile’s media, and the platform receives nothing', async () => {
    const { key, photo } = await otherProfilesPhoto();
    const bot = await connectBot(t.app, t.owner);
    await botchat.sendMessage(bot.token, 'Hi bot', { id: 4242, firstName: 'Ana' });
    await quiescent(t.app);
    const sent = await t.app.api.post(`/accounts/${bot.accountId}/messages`, {
      token: key,
      body: { recipientId: '4242', text: 'Our menu', mediaIds: [photo] },
    });
    refused(sent, photo);
    expect(await botchat.onPlatform(bot.token)).to.deep.equal([]);
  });

  it('POST /accounts/{id}/chatapp/send refuses another profile’s media, and the platform receives nothing', async () => {
    const { key, photo } = await otherProfilesPhoto();
    const { accountId, number } = await connectNumber(t.app, t.owner);
    await chatappCloud.sendMessage(number.phoneNumberId, 'Table for two?', '+4915112345678');
    await quiescent(t.app);
    const sent = await t.app.api.post(`/accounts/${accountId}/chatapp/send`, {
      token: key,
      body: { to: '4915112345678', type: 'image', image: { mediaId: photo } },
    });
    refused(sent, photo);
    expect(await chatappCloud.onPlatform(number.phoneNumberId)).to.deep.equal([]);
  });

  it('a comment reply refuses another profile’s media, and the page posts nothing', async () => {
    const { key, photo } = await otherProfilesPhoto();
    const page = await connectNewPage(t.app, t.owner);
    const post = await socialNetwork.postInApp(page.pageId, 'The Ethiopia blend is back.');
    const { comment } = await socialNetwork.comment(post.id, 'Photo of the bag?', { from: { id: '6734519027381945', name: 'Lena' } });
    const replied = await t.app.api.post(`/accounts/${page.accountId}/comments`, {
      token: key,
      body: { commentId: comment.id, text: 'Here it is.', mediaId: photo },
    });
    refused(replied, photo);
    const onPage = (await socialNetwork.onPlatform(page.pageId)).posts.find((p) => p.id === post.id)!.comments;
    expect(onPage.map((c) => c.message)).to.deep.equal(['Photo of the bag?']);
  });

  it('a wallet program refuses another profile’s image as its logo or icon, made or changed', async () => {
    const { key, photo } = await otherProfilesPhoto();
    const design = {
      profileId: t.owner.profileId,
      name: 'Coffee Club',
      passStyle: 'storeCard',
      organizationName: 'Acme',
      description: 'Card',
    };
    refused(await t.app.api.post('/wallet/programs', { token: key, body: { ...design, logoMediaId: photo } }), photo);
    refused(await t.app.api.post('/wallet/programs', { token: key, body: { ...design, iconMediaId: photo } }), photo);
    const program = await t.app.api.post('/wallet/programs', { token: key, body: design });
    expect(program.status, program.text).to.equal(201);
    refused(await t.app.api.patch(`/wallet/programs/${program.body.id}`, { token: key, body: { logoMediaId: photo } }), photo);
    const read = await t.app.api.get(`/wallet/programs/${program.body.id}`, { token: key });
    expect(read.body).to.include({ logoMediaId: null, iconMediaId: null });
  });
});
