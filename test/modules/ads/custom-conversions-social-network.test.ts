import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { PixelPeople } from '../../support/sandbox/pixels.js';
import { marketing } from './tree-support.js';

describeApi(
  'ads custom conversions on the social network — GET|POST /ads/custom-conversions, GET /ads/custom-conversions/{id}',
  {},
  (t) => {
    const ads = marketing(t);
    const pixels = new PixelPeople(() => t.app);
    const post = (path: string, body: Record<string, unknown>, idempotencyKey?: string) =>
      t.app.api.post(path, { token: t.owner.key, body, ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}) });
    const setUp = async () => {
      const account = await ads.connect({ currency: 'EUR' });
      const pixel = await post('/ads/pixels', { adAccountId: account.adAccountId, name: 'Shop pixel' });
      expect(pixel.status, pixel.text).to.equal(201);
      return { account, pixelId: pixel.body.id as string };
    };
    const rule = {
      combinator: 'and',
      conditions: [
        { field: 'url', operator: 'contains', value: '/thank-you' },
        { field: 'custom_data.value', operator: 'greater_than', value: '20' },
      ],
    };

    it('creates one in the platform rule syntax, reads it back, and lists it (by pixel too)', async () => {
      const { account, pixelId } = await setUp();
      const body = {
        adAccountId: account.adAccountId,
        name: 'Big purchases',
        pixelId,
        customEventType: 'PURCHASE',
        rule,
        defaultConversionValue: 2000,
      };
      const made = await post('/ads/custom-conversions', body);
      expect(made.status, made.text).to.equal(201);
      expect(made.body).to.deep.include({
        adAccountId: account.adAccountId,
        platform: 'social_network',
        name: 'Big purchases',
        description: null,
        pixelId,
        customEventType: 'PURCHASE',
        rule,
        defaultConversionValue: 2000,
        currency: 'EUR',
        lastFiredTime: null,
        isArchived: false,
      });
      const [kept] = (await pixels.onPlatform(account.platformId)).customConversions;
      expect(JSON.parse(kept!.rule)).to.deep.equal({ and: [{ url: { i_contains: '/thank-you' } }, { 'custom_data.value': { gt: 20 } }] });
      expect(kept!.defaultConversionValue).to.equal(20);

      const one = await t.app.api.get(`/ads/custom-conversions/${made.body.id}?adAccountId=${account.adAccountId}`, { token: t.owner.key });
      expect(one.status, one.text).to.equal(200);
      expect(one.body).to.deep.equal(made.body);
      await pixels.archive(made.body.id);
      const list = await t.app.api.get(`/ads/custom-conversions?adAccountId=${account.adAccountId}&pixelId=${pixelId}`, {
        token: t.owner.key,
      });
      expect(list.body.data.map((item: any) => [item.id, item.isArchived])).to.deep.equal([[made.body.id, true]]);
      const otherPixel = await post('/ads/pixels', { adAccountId: account.adAccountId, name: 'Other pixel' });
      const none = await t.app.api.get(`/ads/custom-conversions?adAccountId=${account.adAccountId}&pixelId=${otherPixel.body.id}`, {
        token: t.owner.key,
      });
      expect(none.body.data).to.deep.equal([]);
    });

    it('refuses a rule the platform syntax refuses, naming each condition, before anything is made', async () => {
      const { account, pixelId } = await setUp();
      const refused = await post('/ads/custom-conversions', {
        adAccountId: account.adAccountId,
        name: 'Wrong',
        pixelId,
        customEventType: 'LEAD',
        rule: {
          combinator: 'or',
          conditions: [
            { field: 'url', operator: 'greater_than', value: '3' },
            { field: 'custom_data.value', operator: 'less_than', value: 'many' },
          ],
        },
      });
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.errors.map((error: any) => error.path)).to.deep.equal([
        'body/rule/conditions/0/operator',
        'body/rule/conditions/1/value',
      ]);
      expect((await pixels.onPlatform(account.platformId)).customConversions).to.deep.equal([]);
    });

    it('explains the per-account limit of 100 in the 422', async () => {
      const { account, pixelId } = await setUp();
      for (let index = 0; index < 100; index += 1) {
        const made = await ads.graph(account, 'POST', `${account.platformId}/customconversions`, {
          name: `Made in the events manager ${index}`,
          pixel_id: pixelId,
          custom_event_type: 'LEAD',
          rule: JSON.stringify({ and: [{ url: { i_contains: `/page-${index}` } }] }),
        });
        expect(made.status, JSON.stringify(made.body)).to.equal(200);
      }
      const refused = await post('/ads/custom-conversions', {
        adAccountId: account.adAccountId,
        name: 'One too many',
        pixelId,
        customEventType: 'LEAD',
        rule,
      });
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.code).to.equal('ad_platform_rejected');
      expect(refused.body.detail).to.contain('100 custom conversions').and.to.contain('archive or delete one');
    });

    it('makes one for a lost answer retried with its key; 404 for an unknown one or a pixel the ad account lacks', async () => {
      const { account, pixelId } = await setUp();
      await pixels.loseAnswer(account.platformId, 'customconversions');
      const body = { adAccountId: account.adAccountId, name: 'Lost', pixelId, customEventType: 'LEAD', rule };
      expect((await post('/ads/custom-conversions', body, 'conversion-key')).status).to.equal(502);
      const again = await post('/ads/custom-conversions', body, 'conversion-key');
      expect(again.status, again.text).to.equal(201);
      expect((await pixels.onPlatform(account.platformId)).customConversions.map((one) => one.id)).to.deep.equal([again.body.id]);
      const unknown = await t.app.api.get(`/ads/custom-conversions/999999?adAccountId=${account.adAccountId}`, { token: t.owner.key });
      expect(unknown.status, unknown.text).to.equal(404);
      const noPixel = await post('/ads/custom-conversions', { ...body, name: 'No pixel', pixelId: '999999' });
      expect(noPixel.status, noPixel.text).to.equal(404);
    });
  },
);
