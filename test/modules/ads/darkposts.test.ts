import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { MarketingPeople } from '../../support/sandbox/marketing.js';
import { connectAdAccounts, connectPages, pendingConnection } from '../../support/sandbox/social-network.js';
import { uploadPhoto } from '../publishing/support.js';

describeApi('createDarkPost — POST /ads/darkpost, GET /ads/darkposts', (t) => {
  const marketing = new MarketingPeople(() => t.app);
  const create = (body: Record<string, unknown>, idempotencyKey?: string) =>
    t.app.api.post('/ads/darkpost', {
      token: t.owner.key,
      body,
      ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
    });

  /** A person's page and ad account, both connected to the owner's profile. */
  async function pageAndAdAccount() {
    const person = await t.sandbox.socialNetwork.newPerson({ pages: 1, adAccounts: 1 });
    const page = await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), person.pageIds);
    const advertiser = await connectAdAccounts(t.app, t.owner, await pendingConnection(t.app, t.owner), person.adAccountIds);
    expect(advertiser.status, advertiser.text).to.equal(201);
    return {
      accountId: page.body.data[0].id as string,
      adAccountId: advertiser.body.data[0].id as string,
      pageId: person.pageIds[0]!,
      platformAdAccountId: person.adAccountIds[0]!,
    };
  }
  const creatives = async (platformAdAccountId: string) =>
    (await marketing.adObjects(platformAdAccountId)).filter((object) => object.kind === 'adcreative');

  it('makes an unpublished link post with our image and a call to action: 201 with the post and creative ids, listed', async () => {
    const { accountId, adAccountId, pageId, platformAdAccountId } = await pageAndAdAccount();
    const mediaId = await uploadPhoto(t.app, t.owner);
    const made = await create({
      adAccountId,
      accountId,
      name: 'Winter dark post',
      text: 'Our winter blend is back',
      link: 'https://acme.example/winter',
      linkName: 'Winter blend',
      mediaIds: [mediaId],
      callToAction: { type: 'SHOP_NOW' },
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({ adAccountId, accountId, name: 'Winter dark post' });
    expect(made.body.platformPostId).to.match(new RegExp(`^${pageId}_\\d+$`));
    const [creative] = await creatives(platformAdAccountId);
    expect(creative!.id).to.equal(made.body.creativeId);
    const spec = creative!.fields.object_story_spec as any;
    expect(spec.page_id).to.equal(pageId);
    expect(spec.link_data).to.deep.include({
      link: 'https://acme.example/winter',
      message: 'Our winter blend is back',
      name: 'Winter blend',
      call_to_action: { type: 'SHOP_NOW', value: { link: 'https://acme.example/winter' } },
    });
    expect(spec.link_data.image_hash).to.be.a('string');
    const listed = await t.app.api.get(`/ads/darkposts?adAccountId=${adAccountId}`, { token: t.owner.key });
    expect(listed.body.data).to.deep.equal([made.body]);
  });

  it('makes a photo post from an image URL when there is no link; its name is the start of the text', async () => {
    const { accountId, adAccountId, platformAdAccountId } = await pageAndAdAccount();
    const made = await create({ adAccountId, accountId, text: 'Roasting day', mediaUrls: ['https://cdn.acme.example/roast.jpg'] });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.name).to.equal('Roasting day');
    const [creative] = await creatives(platformAdAccountId);
    expect((creative!.fields.object_story_spec as any).photo_data).to.deep.equal({
      url: 'https://cdn.acme.example/roast.jpg',
      caption: 'Roasting day',
    });
  });

  it('a retry with the same Idempotency-Key answers the same dark post: one creative on the platform, listed once', async () => {
    const { accountId, adAccountId, platformAdAccountId } = await pageAndAdAccount();
    const body = { adAccountId, accountId, text: 'Once', link: 'https://acme.example/once' };
    const first = await create(body, 'dark-1');
    const again = await create(body, 'dark-1');
    expect(again.body).to.deep.equal(first.body);
    expect(await creatives(platformAdAccountId)).to.have.length(1);
    expect((await t.app.api.get('/ads/darkposts', { token: t.owner.key })).body.data).to.have.length(1);
  });

  it('refuses a post with neither link nor media (400), before anything reaches the platform', async () => {
    const { accountId, adAccountId, platformAdAccountId } = await pageAndAdAccount();
    const refused = await create({ adAccountId, accountId, text: 'Just words' });
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.body.errors[0]).to.include({ path: 'body' });
    expect(await creatives(platformAdAccountId)).to.deep.equal([]);
  });

  itPagesByKeyset(t, 'listDarkPosts', async (count) => {
    const { accountId, adAccountId } = await pageAndAdAccount();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const made = await create({ adAccountId, accountId, text: `Post ${i}`, link: `https://acme.example/${i}` });
      expect(made.status, made.text).to.equal(201);
      ids.push(made.body.creativeId);
    }
    return { path: '/ads/darkposts', ids: ids.reverse(), idOf: (item) => item.creativeId };
  });
});
