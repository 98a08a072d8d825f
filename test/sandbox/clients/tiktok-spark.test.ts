import { expect } from 'chai';
import { IdentityApi } from 'tiktok-business-api-sdk-official';
import { sandboxForFile } from './sandbox.js';
import { businessApiOf, sdk } from './tiktok-business.js';

/**
 * The Spark ad calls our short_video_ads adapter makes (src/platforms/short-video-ads/spark.ts): a linked creator
 * account's post read through TikTok's Business SDK (`identityVideoInfo`); a creator's authorisation code read,
 * bound and listed (`tt_video/info`, `tt_video/authorize`, `tt_video/list`), for which the SDK has no call: plain
 * HTTP as TikTok documents them.
 */
describe('sandbox TikTok Business API (Spark ads) — through tiktok-business-api-sdk-official', () => {
  const sandbox = sandboxForFile();
  const business = businessApiOf(sandbox);
  const control = async (path: string, body: Record<string, unknown>) => {
    const answer = await fetch(`${sandbox.url()}/_sandbox/short_video_ads/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status, path).to.equal(201);
    return (await answer.json()) as Record<string, any>;
  };

  it('identityVideoInfo — a linked account’s post, authorised for ads or not', async () => {
    const linked = await control('linked-accounts', {
      advertiserId: business.advertiserId(),
      displayName: 'Acme Baristas',
      posts: { '7311000000000000101': true, '7311000000000000102': false },
    });
    const info = (itemId: string) =>
      sdk((done) =>
        new IdentityApi().identityVideoInfo(business.token(), business.advertiserId(), 'TT_USER', linked.identityId, itemId, {}, done),
      );
    expect((await info('7311000000000000101')).video_detail).to.nested.include({
      item_id: '7311000000000000101',
      'auth_info.ad_auth_status': 'AUTHORIZED',
    });
    expect((await info('7311000000000000102')).video_detail.auth_info.ad_auth_status).to.equal('UNAUTHORIZED');
  });

  it('tt_video/info, authorize and list — a creator’s code read, bound to the advertiser, and listed', async () => {
    const code = await control('spark-codes', { displayName: 'Ana Roasts' });
    const advertiser_id = business.advertiserId();
    const read = await business.plain(`/tt_video/info/?${new URLSearchParams({ advertiser_id, auth_code: code.authCode })}`);
    expect(read.code, read.message).to.equal(0);
    expect(read.data).to.nested.include({ 'item_info.item_id': code.itemId, 'user_info.identity_type': 'AUTH_CODE' });
    const bound = await business.plain('/tt_video/authorize/', { method: 'POST', body: { advertiser_id, auth_code: code.authCode } });
    expect(bound.code, bound.message).to.equal(0);
    const listed = await business.plain(`/tt_video/list/?${new URLSearchParams({ advertiser_id, page: '1', page_size: '20' })}`);
    expect(listed.data.list.map((video: { item_info: { item_id: string } }) => video.item_info.item_id)).to.include(code.itemId);
  });
});
