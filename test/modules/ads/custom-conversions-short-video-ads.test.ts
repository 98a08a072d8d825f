import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { PixelPeople } from '../../support/sandbox/pixels.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';

describeApi(
  'ads custom conversions on short_video_ads — GET|POST /ads/custom-conversions, GET /ads/custom-conversions/{id} through the pixel',
  (t) => {
    const { shortVideoAds } = t.sandbox;
    const pixels = new PixelPeople(() => t.app, 'short_video_ads');
    const post = (path: string, body: Record<string, unknown>, idempotencyKey?: string) =>
      t.app.api.post(path, { token: t.owner.key, body, ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}) });
    const get = (path: string) => t.app.api.get(path, { token: t.owner.key });
    const newPixel = async (adAccountId: string, name: string) => {
      const made = await post('/ads/pixels', { adAccountId, name });
      expect(made.status, made.text).to.equal(201);
      return made.body.id as string;
    };
    const setUp = async () => {
      const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
      return { adAccountId, advertiserId: advertiser.advertiser_id, pixelId: await newPixel(adAccountId, 'Shop pixel') };
    };
    const rule = {
      combinator: 'and',
      conditions: [
        { field: 'url', operator: 'contains', value: '/thank-you' },
        { field: 'custom_data.value', operator: 'greater_than', value: '20' },
      ],
    };

    it("creates one in TikTok's rule syntax through the pixel's numeric id, reads it back, and lists it (by pixel too)", async () => {
      const { adAccountId, advertiserId, pixelId } = await setUp();
      const body = { adAccountId, name: 'Big purchases', pixelId, customEventType: 'PURCHASE', rule };
      const made = await post('/ads/custom-conversions', body);
      expect(made.status, made.text).to.equal(201);
      expect(made.body).to.deep.include({
        adAccountId,
        platform: 'short_video_ads',
        name: 'Big purchases',
        description: null,
        pixelId,
        customEventType: 'PURCHASE',
        rule,
        defaultConversionValue: null,
        currency: 'USD',
        isArchived: false,
      });
      const onPlatform = await pixels.onPlatform(advertiserId);
      const [kept] = onPlatform.customConversions;
      expect(kept).to.deep.include({
        pixelId: onPlatform.pixels[0]!.pixelId,
        optimizationEvent: 'SHOPPING',
        rules: [
          { parameter: 'URL', operator: 'CONTAIN', values: ['/thank-you'] },
          { parameter: 'VALUE', operator: 'GT', values: ['20'] },
        ],
      });

      const one = await get(`/ads/custom-conversions/${made.body.id}?adAccountId=${adAccountId}`);
      expect(one.status, one.text).to.equal(200);
      expect(one.body).to.deep.equal(made.body);
      const other = await newPixel(adAccountId, 'Other pixel');
      const all = await get(`/ads/custom-conversions?adAccountId=${adAccountId}`);
      expect(all.body.data.map((item: any) => item.id)).to.deep.equal([made.body.id]);
      const byPixel = await get(`/ads/custom-conversions?adAccountId=${adAccountId}&pixelId=${pixelId}`);
      expect(byPixel.body.data.map((item: any) => item.id)).to.deep.equal([made.body.id]);
      expect((await get(`/ads/custom-conversions?adAccountId=${adAccountId}&pixelId=${other}`)).body.data).to.deep.equal([]);
    });

    it("refuses what TikTok's syntax refuses, naming each member, before anything is made", async () => {
      const { adAccountId, advertiserId, pixelId } = await setUp();
      const refused = await post('/ads/custom-conversions', {
        adAccountId,
        name: 'Wrong',
        pixelId,
        customEventType: 'DONATE',
        defaultConversionValue: 500,
        rule: {
          combinator: 'or',
          conditions: [
            { field: 'referrer', operator: 'contains', value: 'news' },
            { field: 'url', operator: 'ends_with', value: '.html' },
            { field: 'custom_data.value', operator: 'contains', value: '2' },
            { field: 'custom_data.colour', operator: 'equals', value: 'red' },
          ],
        },
      });
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.code).to.equal('ad_platform_rejected');
      expect(refused.body.errors.map((error: any) => error.path)).to.deep.equal([
        'body/rule/combinator',
        'body/customEventType',
        'body/rule/conditions/0/field',
        'body/rule/conditions/1/operator',
        'body/rule/conditions/2/operator',
        'body/rule/conditions/3/field',
        'body/defaultConversionValue',
      ]);
      const badName = await post('/ads/custom-conversions', {
        adAccountId,
        name: '1 starts with a digit',
        pixelId,
        customEventType: 'LEAD',
        rule,
      });
      expect(badName.status, badName.text).to.equal(422);
      expect(badName.body.errors[0]).to.include({ path: 'body/name' });
      expect((await pixels.onPlatform(advertiserId)).customConversions).to.deep.equal([]);
    });

    it('explains the per-account limit of 100 in the 422', async () => {
      const { adAccountId, pixelId } = await setUp();
      for (let index = 0; index < 100; index += 1) {
        const made = await post('/ads/custom-conversions', { adAccountId, name: `Page ${index}`, pixelId, customEventType: 'LEAD', rule });
        expect(made.status, made.text).to.equal(201);
      }
      const refused = await post('/ads/custom-conversions', { adAccountId, name: 'One too many', pixelId, customEventType: 'LEAD', rule });
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.code).to.equal('ad_platform_rejected');
      expect(refused.body.detail).to.contain('100 custom conversions').and.to.contain('archive or delete one');
    });

    it('makes one for a lost answer retried with its key; 404 for an unknown one or a pixel the ad account lacks', async () => {
      const { adAccountId, advertiserId, pixelId } = await setUp();
      await pixels.loseAnswer(advertiserId, 'custom_conversion');
      const body = { adAccountId, name: 'Lost', pixelId, customEventType: 'LEAD', rule };
      expect((await post('/ads/custom-conversions', body, 'conversion-key')).status).to.equal(502);
      const again = await post('/ads/custom-conversions', body, 'conversion-key');
      expect(again.status, again.text).to.equal(201);
      expect((await pixels.onPlatform(advertiserId)).customConversions.map((one) => one.id)).to.deep.equal([again.body.id]);
      const unknown = await get(`/ads/custom-conversions/999999?adAccountId=${adAccountId}`);
      expect(unknown.status, unknown.text).to.equal(404);
      const noPixel = await post('/ads/custom-conversions', { ...body, name: 'No pixel', pixelId: 'CUNKNOWN000000000000' });
      expect(noPixel.status, noPixel.text).to.equal(404);
    });
  },
);
