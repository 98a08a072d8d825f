import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { describeApi } from '../../support/harness.js';
import { AudiencePeople } from '../../support/sandbox/audiences.js';
import { connectNewAdAccount } from '../../support/sandbox/marketing.js';

describeApi('custom audiences on social_network — GET|POST /ads/audiences, GET|PATCH|DELETE /ads/audiences/{audienceId}', (t) => {
  const people = new AudiencePeople(() => t.app, 'social_network');
  const post = (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.api.post(path, { token: t.owner.key, body, headers });
  const customList = (adAccountId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    post('/ads/audiences', { adAccountId, name: 'Newsletter', subtype: 'CUSTOM', ...extra }, headers);
  const upload = (
    adAccountId: string,
    audienceId: string,
    text: string,
    type = 'application/x-ndjson',
    extra: Record<string, string> = {},
  ) =>
    t.app.api.request('POST', `/ads/audiences/${audienceId}/people?adAccountId=${adAccountId}`, {
      token: t.owner.key,
      rawBody: text,
      headers: { 'Content-Type': type, ...extra },
    });

  it('a customer list made with plain emails: they reach the platform normalised and hashed, the size is a range once matched', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const made = await customList(ad.adAccountId, {
      description: 'From the shop',
      users: { schema: 'EMAIL_SHA256', hashed: false, data: ['  Anna@Example.com ', 'ben@example.org', 'not an email'] },
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({ subtype: 'CUSTOM', name: 'Newsletter', description: 'From the shop', platform: 'social_network' });
    expect(made.body.userUpload).to.deep.equal({ received: 2, invalid: 1 });
    const [onPlatform] = await people.onPlatform(ad.platformAdAccountId);
    expect(onPlatform).to.include({ id: made.body.id, people: 2 });
    const uploads = await t.app.api.get(`/ads/audiences/${made.body.id}/uploads?adAccountId=${ad.adAccountId}`, { token: t.owner.key });
    expect(uploads.status, uploads.text).to.equal(200);
    expect(uploads.body.data).to.have.length(1);
    expect(uploads.body.data[0]).to.include({ action: 'add', status: 'complete', read: 3, received: 2, invalid: 1, batches: 1 });
    expect(uploads.body.data[0].fields).to.deep.equal(['EMAIL']);
    expect(uploads.body.data[0].samples).to.deep.equal([{ line: 3, message: 'no field the platform takes is usable once normalised' }]);
  });

  it('hashed: true takes only SHA-256 digests; anything else is counted invalid and never sent', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const made = await customList(ad.adAccountId, {
      users: { schema: 'EMAIL_SHA256', data: [sha256Hex('anna@example.com'), 'anna@example.com'] },
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.userUpload).to.deep.equal({ received: 1, invalid: 1 });
  });

  it('25 000 people streamed as NDJSON go in one session of 3 batches; a removal takes them out again; receipts are kept newest first', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const made = await customList(ad.adAccountId);
    expect(made.status, made.text).to.equal(201);
    const lines = Array.from({ length: 25_000 }, (_, i) =>
      JSON.stringify(
        i % 2
          ? { email: `person${i}@example.com`, country: 'DE' }
          : { phone: `0151 ${String(1_000_000 + i)}`, country: 'DE', firstName: 'Änne' },
      ),
    );
    lines.splice(100, 0, 'not json', '{"email": 5}', '{"nickname": "x"}');
    const added = await upload(ad.adAccountId, made.body.id, lines.join('\n'));
    expect(added.status, added.text).to.equal(201);
    expect(added.body).to.include({
      action: 'add',
      status: 'complete',
      read: 25_003,
      received: 25_000,
      invalid: 3,
      batches: 3,
      matched: null,
    });
    expect(added.body.fields).to.have.members(['EMAIL', 'COUNTRY', 'PHONE', 'FN']);
    expect(added.body.samples.map((one: { line: number }) => one.line)).to.deep.equal([101, 102, 103]);
    const [audience] = await people.onPlatform(ad.platformAdAccountId);
    expect(audience!.people).to.equal(25_000);
    expect(audience!.sessions![added.body.sessionId]).to.deep.equal({ seq: 3, closed: true });

    const removed = await t.app.api.request('POST', `/ads/audiences/${made.body.id}/people/removals?adAccountId=${ad.adAccountId}`, {
      token: t.owner.key,
      rawBody: lines.slice(0, 1000).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(removed.status, removed.text).to.equal(201);
    // The first 1 000 lines hold the 3 refused ones.
    expect(removed.body).to.include({ action: 'remove', received: 997, invalid: 3, batches: 1 });
    expect((await people.onPlatform(ad.platformAdAccountId))[0]!.people).to.equal(24_003);

    const read = await t.app.api.get(`/ads/audiences/${made.body.id}?adAccountId=${ad.adAccountId}`, { token: t.owner.key });
    expect(read.status, read.text).to.equal(200);
    expect(read.body.status).to.equal('ready');
    expect(read.body.sizeRange.lower).to.be.within(15_000, read.body.sizeRange.upper);
    expect(read.body.approximateCount).to.equal(read.body.sizeRange.lower);

    const first = await t.app.api.get(`/ads/audiences/${made.body.id}/uploads?adAccountId=${ad.adAccountId}&limit=1`, {
      token: t.owner.key,
    });
    expect(first.body.data[0].id).to.equal(removed.body.id);
    const second = await t.app.api.get(
      `/ads/audiences/${made.body.id}/uploads?adAccountId=${ad.adAccountId}&limit=1&cursor=${first.body.nextCursor}`,
      { token: t.owner.key },
    );
    expect(second.body.data[0].id).to.equal(added.body.id);
    expect(second.body.nextCursor).to.equal(null);
  });

  it('a CSV body, gzip-compressed, is read by its header; an unknown column is 400 before anything is sent', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const made = await customList(ad.adAccountId);
    const csv =
      'email,firstName,lastName,country,dateOfBirth\nanna@example.com,"Anna, Maria",Schmidt,DE,1990-04-21\nben@example.org,Ben,,US,\n';
    const added = await t.app.api.request('POST', `/ads/audiences/${made.body.id}/people?adAccountId=${ad.adAccountId}`, {
      token: t.owner.key,
      rawBody: gzipSync(csv) as unknown as string,
      headers: { 'Content-Type': 'text/csv', 'Content-Encoding': 'gzip' },
    });
    expect(added.status, added.text).to.equal(201);
    expect(added.body).to.include({ read: 2, received: 2, invalid: 0 });
    expect(added.body.fields).to.have.members(['EMAIL', 'FN', 'LN', 'COUNTRY']);
    expect(added.body.unusedFields).to.deep.equal(['dateOfBirth']);
    const bad = await upload(ad.adAccountId, made.body.id, 'email,nickname\na@b.co,x\n', 'text/csv');
    expect(bad.status, bad.text).to.equal(400);
    expect((await people.onPlatform(ad.platformAdAccountId))[0]!.people).to.equal(2);
  });

  it('people go to customer lists only; an unknown audience is 404', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const unknown = await upload(ad.adAccountId, '23850000000000999', '{"email":"a@b.co"}');
    expect(unknown.status, unknown.text).to.equal(404);
    const website = await post('/ads/audiences', {
      adAccountId: ad.adAccountId,
      name: 'Visitors',
      subtype: 'WEBSITE',
      pixelId: '1234567890',
      retentionDays: 30,
      rule: { combinator: 'and', conditions: [{ field: 'url', operator: 'contains', value: '/thank-you' }] },
    });
    expect(website.status, website.text).to.equal(201);
    const refused = await upload(ad.adAccountId, website.body.id, '{"email":"a@b.co"}');
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.code).to.equal('ad_platform_rejected');
  });

  it('the custom audience terms not accepted: 422 audience_terms_not_accepted with where to accept them, for a create and an upload', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const made = await customList(ad.adAccountId);
    await people.acceptTerms(ad.platformAdAccountId, false);
    const refused = await customList(ad.adAccountId, { name: 'Second' });
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body).to.include({ code: 'audience_terms_not_accepted', platformCode: 2650, platformSubcode: 1870090 });
    expect(refused.body.detail).to.contain('customaudiences/tos');
    const upload1 = await upload(ad.adAccountId, made.body.id, '{"email":"a@b.co"}');
    expect(upload1.status, upload1.text).to.equal(422);
    expect(upload1.body.code).to.equal('audience_terms_not_accepted');
    const receipts = await t.app.api.get(`/ads/audiences/${made.body.id}/uploads?adAccountId=${ad.adAccountId}`, { token: t.owner.key });
    expect(receipts.body.data[0]).to.include({ status: 'failed', received: 0 });
  });

  it('a lookalike: its source still populating, then too small, are each a clear 422; a large enough source makes it', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    await people.populating(ad.platformAdAccountId, null);
    const source = await customList(ad.adAccountId);
    expect(source.body).to.include({ status: 'populating', sizeRange: null, approximateCount: null });
    const lookalike = (originAudienceId: string) =>
      post('/ads/audiences', {
        adAccountId: ad.adAccountId,
        name: 'Lookalike DE 1%',
        subtype: 'LOOKALIKE',
        lookalikeSpec: { originAudienceId, countries: ['DE'], ratio: 0.01 },
      });
    const notReady = await lookalike(source.body.id);
    expect(notReady.status, notReady.text).to.equal(422);
    expect(notReady.body.code).to.equal('lookalike_source_not_ready');
    await people.finish(source.body.id);
    const tooSmall = await lookalike(source.body.id);
    expect(tooSmall.status, tooSmall.text).to.equal(422);
    expect(tooSmall.body).to.include({ code: 'audience_too_small', platformSubcode: 1713007 });
    const many = Array.from({ length: 200 }, (_, i) => JSON.stringify({ email: `p${i}@example.com` })).join('\n');
    expect((await upload(ad.adAccountId, source.body.id, many)).status).to.equal(201);
    await people.populating(ad.platformAdAccountId, 0);
    const made = await lookalike(source.body.id);
    expect(made.status, made.text).to.equal(201);
    expect(made.body.lookalikeSpec).to.deep.equal({ originAudienceId: source.body.id, countries: ['DE'], ratio: 0.01 });
    expect(made.body.sizeRange.lower).to.be.above(100_000);
  });

  it('members of another subtype are 400; a website audience keeps its rule; rename, retention, list by subtype, delete (204 twice)', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const wrong = await customList(ad.adAccountId, { retentionDays: 30 });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.errors[0]).to.include({ path: 'body/retentionDays' });
    const rule = { combinator: 'or', conditions: [{ field: 'event', operator: 'equals', value: 'Purchase' }] };
    const website = await post('/ads/audiences', {
      adAccountId: ad.adAccountId,
      name: 'Buyers',
      subtype: 'WEBSITE',
      pixelId: '1234567890',
      retentionDays: 30,
      rule,
    });
    expect(website.status, website.text).to.equal(201);
    expect(website.body).to.deep.include({ pixelId: '1234567890', retentionDays: 30, rule });
    await customList(ad.adAccountId);
    const path = `/ads/audiences/${website.body.id}`;
    const changed = await t.app.api.patch(path, {
      token: t.owner.key,
      body: { adAccountId: ad.adAccountId, name: 'Buyers 60d', retentionDays: 60 },
    });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body).to.deep.include({ name: 'Buyers 60d', retentionDays: 60, rule });
    const listed = await t.app.api.get(`/ads/audiences?adAccountId=${ad.adAccountId}&subtype=WEBSITE`, { token: t.owner.key });
    expect(listed.body.data.map((one: { id: string }) => one.id)).to.deep.equal([website.body.id]);
    for (let i = 0; i < 2; i += 1) {
      const deleted = await t.app.api.delete(`${path}?adAccountId=${ad.adAccountId}`, { token: t.owner.key });
      expect(deleted.status, deleted.text).to.equal(204);
    }
    expect((await t.app.api.get(`${path}?adAccountId=${ad.adAccountId}`, { token: t.owner.key })).status).to.equal(404);
  });

  it('a retry of a create with its Idempotency-Key makes no second audience', async () => {
    const ad = await connectNewAdAccount(t.app, t.owner);
    const first = await customList(ad.adAccountId, {}, { 'Idempotency-Key': 'aud-1' });
    const again = await customList(ad.adAccountId, {}, { 'Idempotency-Key': 'aud-1' });
    expect(again.body.id).to.equal(first.body.id);
    expect(await people.onPlatform(ad.platformAdAccountId)).to.have.length(1);
  });
});
