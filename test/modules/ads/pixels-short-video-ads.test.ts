import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { PixelPeople } from '../../support/sandbox/pixels.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X)';
const PAGE = 'https://acme-coffee.example/thank-you';

describeApi('ads pixels on short_video_ads — GET|POST /ads/pixels, POST /ads/pixel-events through the Events API 2.0', (t) => {
  const { shortVideoAds } = t.sandbox;
  const pixels = new PixelPeople(() => t.app, 'short_video_ads');
  const post = (path: string, body: Record<string, unknown>, idempotencyKey?: string) =>
    t.app.api.post(path, { token: t.owner.key, body, ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}) });
  const setUp = async () => {
    const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
    const made = await post('/ads/pixels', { adAccountId, name: 'Shop pixel' });
    expect(made.status, made.text).to.equal(201);
    return { adAccountId, advertiserId: advertiser.advertiser_id, pixel: made.body as { id: string; code: string } };
  };
  const received = async (advertiserId: string, code: string) =>
    (await pixels.onPlatform(advertiserId)).pixels.find((pixel) => pixel.id === code)!.events;
  const webEvent = (eventId: string, extra: Record<string, unknown> = {}) => ({
    eventName: 'CompletePayment',
    eventTime: minutesAgo(1),
    actionSource: 'website',
    eventSourceUrl: PAGE,
    eventId,
    userData: { em: [sha256('a@b.example')], clientUserAgent: UA },
    ...extra,
  });

  it('creates a pixel named by its code with its base code, and lists pixels with the code only when asked', async () => {
    const { adAccountId, pixel } = await setUp();
    expect(pixel).to.include({ adAccountId, platform: 'short_video_ads', name: 'Shop pixel', lastFiredTime: null });
    expect(pixel.id).to.match(/^C[0-9A-Z]{19}$/);
    expect(pixel.code).to.contain(`ttq.load('${pixel.id}')`);
    const plain = await t.app.api.get(`/ads/pixels?adAccountId=${adAccountId}`, { token: t.owner.key });
    expect(plain.status, plain.text).to.equal(200);
    expect(plain.body.data.map((one: any) => [one.id, one.code])).to.deep.equal([[pixel.id, null]]);
    const withCode = await t.app.api.get(`/ads/pixels?adAccountId=${adAccountId}&includeCode=true`, { token: t.owner.key });
    expect(withCode.body.data[0].code).to.equal(pixel.code);
    const long = await post('/ads/pixels', { adAccountId, name: 'A pixel name longer than the forty characters TikTok takes' });
    expect(long.status, long.text).to.equal(422);
    expect(long.body.errors[0]).to.include({ path: 'body/name' });
  });

  it('makes one pixel for a retried Idempotency-Key and for a lost answer (found again by its name)', async () => {
    const { adAccountId, advertiserId } = await setUp();
    await pixels.loseAnswer(advertiserId, 'pixel');
    expect((await post('/ads/pixels', { adAccountId, name: 'Lost answer' }, 'pixel-key')).status).to.equal(502);
    const lost = await post('/ads/pixels', { adAccountId, name: 'Lost answer' }, 'pixel-key');
    expect(lost.status, lost.text).to.equal(201);
    const again = await post('/ads/pixels', { adAccountId, name: 'Lost answer' }, 'pixel-key');
    expect(again.body.id).to.equal(lost.body.id);
    const names = (await pixels.onPlatform(advertiserId)).pixels.map((one) => one.name);
    expect(names.sort()).to.deep.equal(['Lost answer', 'Shop pixel']);
  });

  it('hashes plain person fields as the Events API 2.0 documents (its own examples); city, state and country in clear; IP, user agent, ttclid and ttp unhashed', async () => {
    const { adAccountId, advertiserId, pixel } = await setUp();
    const sent = await post('/ads/pixel-events', {
      adAccountId,
      pixelId: pixel.id,
      hashed: false,
      events: [
        webEvent('order-1', {
          userData: {
            em: [' ALICE_abc@gmail.com '],
            ph: ['(+1)2133734253'],
            externalId: ['user_123'],
            fn: 'Mary',
            ct: 'Menlo Park',
            st: 'California',
            zp: '94025-1234',
            country: 'US',
            ge: 'f',
            clientIpAddress: '203.0.113.24',
            clientUserAgent: UA,
            ttclid: 'E.C.P.tiktok-click',
            ttp: '2OvZbLl4n4GjDa3wOtYf4Ytk9Vw',
            fbp: 'fb.1.1732270000000.1098115397',
          },
          customData: { value: 3490, currency: 'EUR', contents: [{ id: 'WB-250', quantity: 2, itemPrice: 1745 }] },
        }),
      ],
    });
    expect(sent.status, sent.text).to.equal(200);
    expect(sent.body).to.include({ pixelId: pixel.id, eventsReceived: 1, eventsAlreadySent: 0 });
    expect(sent.body.platformTraceId).to.be.a('string');
    expect(sent.body.messages).to.deep.equal([
      'userData.ge: short_video_ads takes no gender (events 0): left out.',
      "userData.fbp: another platform's id (events 0): left out.",
    ]);
    const [{ event }] = (await received(advertiserId, pixel.id)) as any;
    expect(event.user).to.deep.equal({
      email: ['848a771458438fc2ec420560d769fb9b9b86851ee338ec56517baabd79d3bb4f'],
      phone: ['9f7ec22d72092cd3c0b58726ed9c2d91b92e51a3f29837508fb2948bb22dd2fd'],
      external_id: ['80fba0ae1c48e3978e43e4efc365e14e12ea0c830ba8ba5b9a2dafc7e3f2ab8b'],
      first_name: sha256('mary'),
      city: 'menlopark',
      state: 'ca',
      zip_code: sha256('94025'),
      country: 'us',
      ip: '203.0.113.24',
      user_agent: UA,
      ttclid: 'E.C.P.tiktok-click',
      ttp: '2OvZbLl4n4GjDa3wOtYf4Ytk9Vw',
    });
    expect(event.properties).to.deep.equal({
      value: 34.9,
      currency: 'EUR',
      contents: [{ content_id: 'WB-250', quantity: 2, price: 17.45 }],
    });
    expect(event).to.deep.include({ event: 'CompletePayment', event_id: 'order-1', page: { url: PAGE } });
    expect(event.event_time).to.be.a('number');
  });

  it('sends an event of a given name and eventId once: a retry or an overlapping batch counts it as already sent', async () => {
    const { adAccountId, advertiserId, pixel } = await setUp();
    const send = (events: unknown[]) => post('/ads/pixel-events', { adAccountId, pixelId: pixel.id, events });
    expect((await send([webEvent('order-1')])).body).to.include({ eventsReceived: 1, eventsAlreadySent: 0 });
    const overlap = await send([webEvent('order-1'), webEvent('order-2'), webEvent('order-2')]);
    expect(overlap.body).to.include({ eventsReceived: 1, eventsAlreadySent: 2 });
    expect((await send([webEvent('order-1')])).body).to.include({ eventsReceived: 0, eventsAlreadySent: 1, platformTraceId: null });
    const ids = (await received(advertiserId, pixel.id)).map(({ event }) => event.event_id);
    expect(ids).to.deep.equal(['order-1', 'order-2']);
  });

  it('refuses what TikTok would, naming each event, before anything is sent: too old, not a website event, a malformed hash', async () => {
    const { adAccountId, advertiserId, pixel } = await setUp();
    const refused = await post('/ads/pixel-events', {
      adAccountId,
      pixelId: pixel.id,
      events: [
        webEvent('ok'),
        webEvent('old', { eventTime: minutesAgo(8 * 24 * 60) }),
        { eventName: 'Lead', eventTime: minutesAgo(1), actionSource: 'email', userData: { em: [sha256('x@b.example')] } },
        webEvent('plain', { userData: { em: ['jane@example.com'], clientUserAgent: UA } }),
      ],
    });
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.code).to.equal('ad_platform_rejected');
    expect(refused.body.errors.map((error: any) => error.path)).to.deep.equal([
      'body/events/1/eventTime',
      'body/events/2/actionSource',
      'body/events/3/userData/em/0',
    ]);
    expect(JSON.stringify(refused.body)).not.to.contain('jane@example.com');
    expect(await received(advertiserId, pixel.id)).to.deep.equal([]);
  });

  it('sends events with a test event code as test events, which never count as sent for real', async () => {
    const { adAccountId, advertiserId, pixel } = await setUp();
    const body = { adAccountId, pixelId: pixel.id, events: [webEvent('test-1')] };
    expect((await post('/ads/pixel-events', { ...body, testEventCode: 'TEST4821' })).body).to.include({ eventsReceived: 1 });
    expect((await post('/ads/pixel-events', body)).body).to.include({ eventsReceived: 1, eventsAlreadySent: 0 });
    const events = await received(advertiserId, pixel.id);
    expect(events.map((one) => one.testEventCode)).to.deep.equal(['TEST4821', null]);
    const listed = await t.app.api.get(`/ads/pixels?adAccountId=${adAccountId}`, { token: t.owner.key });
    expect(listed.body.data[0].lastFiredTime).to.be.a('string');
  });

  it('answers 404 for a pixel code TikTok does not know', async () => {
    const { adAccountId } = await setUp();
    const sent = await post('/ads/pixel-events', { adAccountId, pixelId: 'CUNKNOWN000000000000', events: [webEvent('x')] });
    expect(sent.status, sent.text).to.equal(404);
  });

  it('the sandbox refuses as the Events API does: stale events, bad hashes, a web event without its page', async () => {
    const { adAccountId, pixel } = await setUp();
    const row = await t.app.services.db('adAccounts').where({ id: adAccountId }).first();
    const { accessToken } = JSON.parse(t.app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string };
    const now = Math.floor(Date.now() / 1000);
    const track = async (event: Record<string, unknown>) => {
      const response = await fetch(`${t.app.services.sandboxUrl}/short_video_ads/open_api/v1.3/event/track/`, {
        method: 'POST',
        headers: { 'Access-Token': accessToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({ event_source: 'web', event_source_id: pixel.id, data: [event] }),
      });
      return (await response.json()) as { code: number; message: string };
    };
    const page = { url: PAGE };
    const answers = await Promise.all([
      track({ event: 'Lead', event_time: now - 8 * 86_400, page, user: { email: [sha256('a')] } }),
      track({ event: 'Lead', event_time: now, page, user: { email: ['a@b.example'] } }),
      track({ event: 'Lead', event_time: now, user: { email: [sha256('a')] } }),
      track({ event: 'Lead', event_time: now, page, user: { email: [sha256('a')] } }),
    ]);
    expect(answers.map((answer) => [answer.code, answer.message.split(':')[0]])).to.deep.equal([
      [40002, 'data[0].event_time'],
      [40002, 'data[0].user.email'],
      [40002, 'data[0].page.url'],
      [0, 'OK'],
    ]);
  });
});
