import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { MeasurementApi } from 'tiktok-business-api-sdk-official';
import { sandboxForFile } from './sandbox.js';
import { businessApiOf, sdk } from './tiktok-business.js';

/**
 * The pixel calls our short_video_ads adapter makes (src/platforms/short-video-ads/ad-pixels.ts): pixels made and
 * listed through TikTok's Business SDK (`pixelCreate`, `pixelList`); events sent through the Events API 2.0
 * (`event/track`, whose SDK call 1.1.3 lacks: it has the older `pixel/track` only) and custom conversions made, listed
 * and read (`custom_conversion/…`, no SDK call either): plain HTTP as TikTok documents them.
 */
describe('sandbox TikTok Business API (pixels, events, custom conversions) — through tiktok-business-api-sdk-official', () => {
  const sandbox = sandboxForFile();
  const business = businessApiOf(sandbox);

  it('pixelCreate and pixelList, an event tracked, a custom conversion made, listed and read', async () => {
    const advertiser_id = business.advertiserId();
    const made = await sdk((done) =>
      new MeasurementApi().pixelCreate(business.token(), { body: { advertiser_id, pixel_name: 'SDK pixel' } }, done),
    );
    expect(made).to.include.keys('pixel_id', 'pixel_code');
    const listed = await sdk((done) => new MeasurementApi().pixelList(advertiser_id, business.token(), { code: made.pixel_code }, done));
    expect(listed.pixels[0]).to.include({ pixel_code: made.pixel_code, pixel_name: 'SDK pixel' });
    expect(listed.page_info).to.include.keys('page', 'page_size', 'total_number', 'total_page');

    const tracked = await business.plain('/event/track/', {
      method: 'POST',
      body: {
        event_source: 'web',
        event_source_id: made.pixel_code,
        data: [
          {
            event: 'CompletePayment',
            event_time: Math.floor(Date.now() / 1000),
            event_id: 'order-1001',
            user: { email: createHash('sha256').update('ana@example.com').digest('hex') },
            page: { url: 'https://acme.example/thanks' },
            properties: { currency: 'EUR', value: 12.9 },
          },
        ],
      },
    });
    expect(tracked.code, tracked.message).to.equal(0);

    const conversion = await business.plain('/custom_conversion/create/', {
      method: 'POST',
      body: {
        advertiser_id,
        name: 'SDK checkout',
        event_source_type: 'PIXEL',
        event_source_id: String(made.pixel_id),
        optimization_event: 'SHOPPING',
        rules: [{ parameter: 'URL', operator: 'CONTAIN', values: ['/thanks'] }],
      },
    });
    expect(conversion.code, conversion.message).to.equal(0);
    const id = String(conversion.data.custom_conversion_id);
    const query = { advertiser_id, event_source_type: 'PIXEL', event_source_id: String(made.pixel_id) };
    const page = await business.plain(`/custom_conversion/list/?${new URLSearchParams(query)}`);
    expect(page.data.list.map((one: { custom_conversion_id: string }) => String(one.custom_conversion_id))).to.include(id);
    const read = await business.plain(`/custom_conversion/get/?${new URLSearchParams({ ...query, custom_conversion_id: id })}`);
    expect(read.data).to.include({ name: 'SDK checkout', optimization_event: 'SHOPPING' });
  });
});
