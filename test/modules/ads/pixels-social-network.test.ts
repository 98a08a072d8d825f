import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { PixelPeople } from '../../support/sandbox/pixels.js';
import { marketing } from './tree-support.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X)';

describeApi('ads pixels on the social network — GET|POST /ads/pixels, POST /ads/pixel-events', {}, (t) => {
  const ads = marketing(t);
  const pixels = new PixelPeople(() => t.app);
  const post = (path: string, body: Record<string, unknown>, idempotencyKey?: string) =>
    t.app.api.post(path, { token: t.owner.key, body, ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}) });
  const newPixel = async (adAccountId: string, name = 'Shop pixel') => {
    const made = await post('/ads/pixels', { adAccountId, name });
    expect(made.status, made.text).to.equal(201);
    return made.body as { id: string; code: string };
  };
  const received = async (platformId: string, pixelId: string) =>
    (await pixels.onPlatform(platformId)).pixels.find((pixel) => pixel.id === pixelId)!.events;

  it('creates a pixel with its base code, and lists pixels with the code only when asked', async () => {
    const account = await ads.connect();
    const pixel = await newPixel(account.adAccountId);
    expect(pixel).to.include({ adAccountId: account.adAccountId, platform: 'social_network', name: 'Shop pixel', lastFiredTime: null });
    expect(pixel.code).to.contain(`fbq('init', '${pixel.id}')`);
    const plain = await t.app.api.get(`/ads/pixels?adAccountId=${account.adAccountId}`, { token: t.owner.key });
    expect(plain.status, plain.text).to.equal(200);
    expect(plain.body.data.map((one: any) => [one.id, one.code])).to.deep.equal([[pixel.id, null]]);
    const withCode = await t.app.api.get(`/ads/pixels?adAccountId=${account.adAccountId}&includeCode=true`, { token: t.owner.key });
    expect(withCode.body.data[0].code).to.equal(pixel.code);
  });

  it('makes one pixel for a retried Idempotency-Key and for a lost answer (found again by its name)', async () => {
    const account = await ads.connect();
    const first = await post('/ads/pixels', { adAccountId: account.adAccountId, name: 'Retried' }, 'pixel-key-1');
    const again = await post('/ads/pixels', { adAccountId: account.adAccountId, name: 'Retried' }, 'pixel-key-1');
    expect(again.body.id).to.equal(first.body.id);
    await pixels.loseAnswer(account.platformId, 'adspixels');
    expect((await post('/ads/pixels', { adAccountId: account.adAccountId, name: 'Lost answer' }, 'pixel-key-2')).status).to.equal(502);
    const lost = await post('/ads/pixels', { adAccountId: account.adAccountId, name: 'Lost answer' }, 'pixel-key-2');
    expect(lost.status, lost.text).to.equal(201);
    const names = (await pixels.onPlatform(account.platformId)).pixels.map((pixel) => pixel.name);
    expect(names.sort()).to.deep.equal(['Lost answer', 'Retried']);
    expect(lost.body.name).to.equal('Lost answer');
  });

  it('normalises and hashes plain person fields as the Conversions API documents; IP, user agent and cookies go unhashed', async () => {
    const account = await ads.connect({ currency: 'EUR' });
    const pixel = await newPixel(account.adAccountId);
    const sent = await post('/ads/pixel-events', {
      adAccountId: account.adAccountId,
      pixelId: pixel.id,
      hashed: false,
      events: [
        {
          eventName: 'Purchase',
          eventTime: minutesAgo(5),
          actionSource: 'website',
          eventSourceUrl: 'https://acme-coffee.example/thank-you',
          eventId: 'order-1',
          userData: {
            em: [' John_Smith@gmail.com '],
            ph: ['(650)555-1212'],
            fn: 'Mary',
            ct: 'Menlo Park',
            st: 'California',
            zp: '94025-1234',
            country: 'US',
            externalId: ['cust-42'],
            clientIpAddress: '203.0.113.24',
            clientUserAgent: UA,
            fbp: 'fb.1.1732270000000.1098115397',
            ttclid: 'E.C.P.tiktok-click',
          },
          customData: { value: 3490, currency: 'EUR', contents: [{ id: 'WB-250', quantity: 2, itemPrice: 1745 }] },
        },
      ],
    });
    expect(sent.status, sent.text).to.equal(200);
    expect(sent.body).to.include({ pixelId: pixel.id, eventsReceived: 1, eventsAlreadySent: 0 });
    expect(sent.body.platformTraceId).to.be.a('string');
    expect(sent.body.messages).to.deep.equal(["userData.ttclid: another platform's id (events 0): left out."]);
    const [{ event }] = (await received(account.platformId, pixel.id)) as any;
    expect(event.user_data).to.deep.equal({
      em: ['62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f'],
      ph: ['e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176'],
      fn: '6915771be1c5aa0c886870b6951b03d7eafc121fea0e80a5ea83beb7c449f4ec',
      ct: sha256('menlopark'),
      st: sha256('ca'),
      zp: sha256('94025'),
      country: sha256('us'),
      external_id: [sha256('cust-42')],
      client_ip_address: '203.0.113.24',
      client_user_agent: UA,
      fbp: 'fb.1.1732270000000.1098115397',
    });
    expect(event.custom_data).to.deep.equal({ value: 34.9, currency: 'eur', contents: [{ id: 'WB-250', quantity: 2, item_price: 17.45 }] });
    expect(event).to.include({ event_name: 'Purchase', action_source: 'website', event_id: 'order-1' });
  });

  it('sends an event of a given name and eventId once: a retry or an overlapping batch counts it as already sent', async () => {
    const account = await ads.connect();
    const pixel = await newPixel(account.adAccountId);
    const event = (eventId: string) => ({
      eventName: 'Lead',
      eventTime: minutesAgo(1),
      actionSource: 'system_generated',
      eventId,
      userData: { em: [sha256('a@b.example')] },
    });
    const send = (events: unknown[]) => post('/ads/pixel-events', { adAccountId: account.adAccountId, pixelId: pixel.id, events });
    expect((await send([event('lead-1')])).body).to.include({ eventsReceived: 1, eventsAlreadySent: 0 });
    const overlap = await send([event('lead-1'), event('lead-2'), event('lead-2')]);
    expect(overlap.body).to.include({ eventsReceived: 1, eventsAlreadySent: 2 });
    const again = await send([event('lead-1')]);
    expect(again.body).to.include({ eventsReceived: 0, eventsAlreadySent: 1, platformTraceId: null });
    const ids = (await received(account.platformId, pixel.id)).map(({ event: one }) => one.event_id);
    expect(ids).to.deep.equal(['lead-1', 'lead-2']);
  });

  it('refuses what the platform would, naming each event, before anything is sent: too old, a website event without its user agent, a malformed hash', async () => {
    const account = await ads.connect();
    const pixel = await newPixel(account.adAccountId);
    const refused = await post('/ads/pixel-events', {
      adAccountId: account.adAccountId,
      pixelId: pixel.id,
      events: [
        { eventName: 'Lead', eventTime: minutesAgo(1), actionSource: 'email', userData: { em: [sha256('ok@b.example')] } },
        { eventName: 'Lead', eventTime: minutesAgo(8 * 24 * 60), actionSource: 'email', userData: { em: [sha256('x@b.example')] } },
        {
          eventName: 'ViewContent',
          eventTime: minutesAgo(1),
          actionSource: 'website',
          eventSourceUrl: 'https://a.example/',
          userData: { em: [sha256('y@b.example')] },
        },
        { eventName: 'Lead', eventTime: minutesAgo(1), actionSource: 'email', userData: { em: ['jane@example.com'] } },
      ],
    });
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.code).to.equal('ad_platform_rejected');
    expect(refused.body.errors.map((error: any) => error.path)).to.deep.equal([
      'body/events/1/eventTime',
      'body/events/2/userData/clientUserAgent',
      'body/events/3/userData/em/0',
    ]);
    expect(JSON.stringify(refused.body)).not.to.contain('jane@example.com');
    expect(await received(account.platformId, pixel.id)).to.deep.equal([]);
  });

  it('sends events with a test event code as test events, which never count as sent for real', async () => {
    const account = await ads.connect();
    const pixel = await newPixel(account.adAccountId);
    const body = {
      adAccountId: account.adAccountId,
      pixelId: pixel.id,
      events: [
        { eventName: 'Lead', eventTime: minutesAgo(1), actionSource: 'chat', eventId: 'test-1', userData: { em: [sha256('t@b.example')] } },
      ],
    };
    expect((await post('/ads/pixel-events', { ...body, testEventCode: 'TEST4821' })).body).to.include({ eventsReceived: 1 });
    expect((await post('/ads/pixel-events', body)).body).to.include({ eventsReceived: 1, eventsAlreadySent: 0 });
    const events = await received(account.platformId, pixel.id);
    expect(events.map((one) => one.testEventCode)).to.deep.equal(['TEST4821', null]);
  });

  it('answers 404 for a pixel the ad account does not have', async () => {
    const account = await ads.connect();
    const other = await ads.connect();
    const foreign = await newPixel(other.adAccountId);
    const sent = await post('/ads/pixel-events', {
      adAccountId: account.adAccountId,
      pixelId: foreign.id,
      events: [{ eventName: 'Lead', eventTime: minutesAgo(1), actionSource: 'chat', userData: { em: [sha256('t@b.example')] } }],
    });
    expect(sent.status, sent.text).to.equal(404);
  });

  it('the sandbox refuses as the Conversions API does: stale events, bad hashes, a missing action source', async () => {
    const account = await ads.connect();
    const pixel = await newPixel(account.adAccountId);
    const now = Math.floor(Date.now() / 1000);
    const capi = (event: Record<string, unknown>) => ads.graph(account, 'POST', `${pixel.id}/events`, { data: [event] });
    const stale = await capi({
      event_name: 'Lead',
      event_time: now - 8 * 86_400,
      action_source: 'email',
      user_data: { em: [sha256('a')] },
    });
    const badHash = await capi({ event_name: 'Lead', event_time: now, action_source: 'email', user_data: { em: ['a@b.example'] } });
    const noSource = await capi({ event_name: 'Lead', event_time: now, user_data: { em: [sha256('a')] } });
    expect([stale, badHash, noSource].map((answer) => [answer.status, answer.body.error.error_subcode])).to.deep.equal([
      [400, 2804003],
      [400, 2804024],
      [400, 2804050],
    ]);
  });
});
