import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { AudiencePeople } from '../../support/sandbox/audiences.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';

describeApi('custom audiences on short_video_ads — the TikTok Business API DMP behind the same operations', (t) => {
  const { shortVideoAds } = t.sandbox;
  const people = new AudiencePeople(() => t.app, 'short_video_ads');
  const post = (path: string, body: Record<string, unknown>) => t.app.api.post(path, { token: t.owner.key, body });
  const upload = (adAccountId: string, audienceId: string, text: string, removals = false) =>
    t.app.api.request('POST', `/ads/audiences/${audienceId}/people${removals ? '/removals' : ''}?adAccountId=${adAccountId}`, {
      token: t.owner.key,
      rawBody: text,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
  const customList = (adAccountId: string, data: string[]) =>
    post('/ads/audiences', { adAccountId, name: 'Newsletter', subtype: 'CUSTOM', users: { schema: 'EMAIL_SHA256', hashed: false, data } });

  it('a customer file audience is made from its first users, hashed into a file the platform takes; without users it is refused', async () => {
    const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
    const empty = await post('/ads/audiences', { adAccountId, name: 'Empty', subtype: 'CUSTOM' });
    expect(empty.status, empty.text).to.equal(422);
    expect(empty.body.errors[0]).to.include({ path: 'body/users' });
    const made = await customList(adAccountId, ['Anna@Example.com', 'ben@example.org', 'nobody']);
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({ platform: 'short_video_ads', subtype: 'CUSTOM', name: 'Newsletter', description: null });
    expect(made.body.userUpload).to.deep.equal({ received: 2, invalid: 1 });
    expect(await people.onPlatform(advertiser.advertiser_id)).to.deep.equal([
      { id: made.body.id, name: 'Newsletter', subtype: 'Customer File', people: 2, files: 1 },
    ]);
    const uploads = await t.app.api.get(`/ads/audiences/${made.body.id}/uploads?adAccountId=${adAccountId}`, { token: t.owner.key });
    expect(uploads.body.data[0]).to.deep.include({
      status: 'complete',
      received: 2,
      invalid: 1,
      fields: ['EMAIL_SHA256'],
      sessionId: null,
    });
  });

  it('people streamed later go a file per 10 000 (emails and E.164 phones hashed; names unused); removals take them out', async () => {
    const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
    const made = await customList(adAccountId, ['anna@example.com']);
    const lines = Array.from({ length: 12_000 }, (_, i) =>
      JSON.stringify(
        i % 2 ? { email: `person${i}@example.com`, firstName: 'Anna' } : { phone: `(650) 555-${String(1000 + (i % 9000))}`, country: 'US' },
      ),
    ).join('\n');
    const added = await upload(adAccountId, made.body.id, lines);
    expect(added.status, added.text).to.equal(201);
    expect(added.body).to.include({ read: 12_000, received: 12_000, invalid: 0, batches: 2 });
    expect(added.body.fields).to.have.members(['EMAIL_SHA256', 'PHONE_SHA256']);
    expect(added.body.unusedFields).to.have.members(['firstName', 'country']);
    expect((await people.onPlatform(advertiser.advertiser_id))[0]).to.include({ people: 12_001, files: 3 });
    const removed = await upload(adAccountId, made.body.id, lines.split('\n').slice(0, 500).join('\n'), true);
    expect(removed.status, removed.text).to.equal(201);
    expect(removed.body).to.include({ action: 'remove', received: 500 });
    expect((await people.onPlatform(advertiser.advertiser_id))[0]!.people).to.equal(11_501);
    const read = await t.app.api.get(`/ads/audiences/${made.body.id}?adAccountId=${adAccountId}`, { token: t.owner.key });
    expect(read.body.status).to.equal('ready');
    expect(read.body.sizeRange).to.deep.equal({ lower: 6900, upper: 6900 });
  });

  it('a lookalike: its source calculating, then too small, are each a clear 422; one of enough people is made with its countries', async () => {
    const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
    await people.populating(advertiser.advertiser_id, null);
    const source = await customList(adAccountId, ['anna@example.com']);
    expect(source.body).to.include({ status: 'populating', sizeRange: null });
    const lookalike = () =>
      post('/ads/audiences', {
        adAccountId,
        name: 'Lookalike US',
        subtype: 'LOOKALIKE',
        lookalikeSpec: { originAudienceId: source.body.id, countries: ['US'], ratio: 0.01 },
      });
    const notReady = await lookalike();
    expect(notReady.status, notReady.text).to.equal(422);
    expect(notReady.body.code).to.equal('lookalike_source_not_ready');
    await people.finish(source.body.id);
    const tooSmall = await lookalike();
    expect(tooSmall.status, tooSmall.text).to.equal(422);
    expect(tooSmall.body).to.include({ code: 'audience_too_small', platformCode: 40002 });
    await upload(
      adAccountId,
      source.body.id,
      Array.from({ length: 300 }, (_, i) => JSON.stringify({ email: `p${i}@example.com` })).join('\n'),
    );
    await people.populating(advertiser.advertiser_id, 0);
    const made = await lookalike();
    expect(made.status, made.text).to.equal(201);
    expect(made.body.lookalikeSpec).to.deep.equal({ originAudienceId: source.body.id, countries: ['US'], ratio: 0.01 });
  });

  it('a pixel-rule audience keeps its rule; rename and retention change on the platform; list by subtype; delete', async () => {
    const { adAccountId } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
    const rule = { combinator: 'and', conditions: [{ field: 'url', operator: 'contains', value: '/thank-you' }] };
    const made = await post('/ads/audiences', {
      adAccountId,
      name: 'Buyers',
      subtype: 'WEBSITE',
      pixelId: 'CTPIXEL123',
      retentionDays: 30,
      rule,
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.deep.include({ pixelId: 'CTPIXEL123', retentionDays: 30, rule });
    await customList(adAccountId, ['anna@example.com']);
    const path = `/ads/audiences/${made.body.id}`;
    const changed = await t.app.api.patch(path, { token: t.owner.key, body: { adAccountId, name: 'Buyers 60d', retentionDays: 60 } });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body).to.deep.include({ name: 'Buyers 60d', retentionDays: 60, rule });
    const listed = await t.app.api.get(`/ads/audiences?adAccountId=${adAccountId}&subtype=WEBSITE`, { token: t.owner.key });
    expect(listed.body.data.map((one: { id: string }) => one.id)).to.deep.equal([made.body.id]);
    for (let i = 0; i < 2; i += 1)
      expect((await t.app.api.delete(`${path}?adAccountId=${adAccountId}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.get(`${path}?adAccountId=${adAccountId}`, { token: t.owner.key })).status).to.equal(404);
  });
});
