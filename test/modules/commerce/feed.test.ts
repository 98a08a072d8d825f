import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { finishedBatch, newCatalog, testCommerceSettings } from './support.js';

const HEADER = 'id,title,description,availability,condition,price,sale_price,link,image_link,brand,inventory';
const csvRow = (id: string, changes: Partial<Record<'title' | 'availability' | 'price' | 'image_link', string>> = {}) =>
  [
    id,
    changes.title ?? `Coffee ${id}`,
    '"Medium roast, whole beans."',
    changes.availability ?? 'in stock',
    'new',
    changes.price ?? '12.90 EUR',
    '',
    `https://acme-coffee.example/p/${id}`,
    changes.image_link ?? `https://cdn.acme-coffee.example/p/${id}.jpg`,
    'Acme Coffee',
    '40',
  ].join(',');

const FEEDS: Record<string, { type: string; body: string }> = {
  '/good.csv': { type: 'text/csv; charset=utf-8', body: [HEADER, csvRow('FEED-1'), csvRow('FEED-2', { price: '1500 JPY' })].join('\n') },
  '/good.xml': {
    type: 'application/rss+xml',
    body: `<?xml version="1.0"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0">
  <channel>
    <title>Acme Coffee</title>
    <item>
      <g:id>FEED-1</g:id>
      <g:title>Winter blend 1 kg</g:title>
      <g:description><![CDATA[Cocoa & orange.]]></g:description>
      <g:availability>in stock</g:availability>
      <g:condition>new</g:condition>
      <g:price>39.90 EUR</g:price>
      <g:link>https://acme-coffee.example/p/FEED-1</g:link>
      <g:image_link>https://cdn.acme-coffee.example/p/FEED-1.jpg</g:image_link>
      <g:shipping><g:country>DE</g:country></g:shipping>
    </item>
    <item>
      <g:id>FEED-3</g:id>
      <g:title>Espresso 250 g</g:title>
      <g:description>Dark roast.</g:description>
      <g:availability>preorder</g:availability>
      <g:condition>new</g:condition>
      <g:price>8.50 EUR</g:price>
      <g:sale_price>7.00 EUR</g:sale_price>
      <g:link>https://acme-coffee.example/p/FEED-3</g:link>
      <g:image_link>https://cdn.acme-coffee.example/p/FEED-3.jpg</g:image_link>
    </item>
  </channel>
</rss>`,
  },
  '/bad.csv': {
    type: 'text/csv',
    body: [
      HEADER,
      csvRow('OK-1'),
      csvRow('BAD-PRICE', { price: '"12,90 EUR"' }),
      csvRow('BAD-ROW', { availability: 'sold out', image_link: '' }),
      csvRow('OK-1'),
    ].join('\n'),
  },
};

describeApi('importProductFeed — POST /commerce/products/imports', { settings: { ...testCommerceSettings() } }, (t) => {
  const { commerce } = t.sandbox;
  let server: Server;
  let base: string;

  before(async () => {
    server = createServer((request, response) => {
      const feed = FEEDS[request.url ?? ''];
      if (!feed) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': feed.type }).end(feed.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const importFeed = (catalogId: string, path: string) =>
    t.app.api.post('/commerce/products/imports', { token: t.owner.key, body: { catalogId, url: `${base}${path}` } });

  it('turns a CSV feed into products, then an XML feed updates one and creates another', async () => {
    const shop = await newCatalog(t.app, t.owner);
    const fromCsv = await importFeed(shop.catalogId, '/good.csv');
    expect(fromCsv.status, JSON.stringify(fromCsv.body)).to.equal(202);
    const csvBatch = await finishedBatch(t.app, t.owner, fromCsv.body.id);
    expect(csvBatch).to.include({ itemCount: 2, succeededCount: 2, failedCount: 0 });

    const fromXml = await importFeed(shop.catalogId, '/good.xml');
    expect(fromXml.status, JSON.stringify(fromXml.body)).to.equal(202);
    const xmlBatch = await finishedBatch(t.app, t.owner, fromXml.body.id);
    expect(xmlBatch).to.include({ succeededCount: 2, failedCount: 0 });
    expect(xmlBatch.items.map((item: any) => [item.retailerId, item.method])).to.deep.equal([
      ['FEED-1', 'UPDATE'],
      ['FEED-3', 'CREATE'],
    ]);

    const onPlatform = await commerce.onPlatform(shop.platformCatalogId);
    const byId = new Map(onPlatform.products.map((p) => [p.retailerId, p.data]));
    expect([...byId.keys()].sort()).to.deep.equal(['FEED-1', 'FEED-2', 'FEED-3']);
    expect(byId.get('FEED-1')).to.include({ title: 'Winter blend 1 kg', price: '39.90 EUR' });
    expect(byId.get('FEED-2')).to.include({ price: '1500 JPY' });
    const listed = await t.app.api.get(`/commerce/products?catalogId=${shop.catalogId}&limit=10`, { token: t.owner.key });
    const feed3 = listed.body.data.find((p: any) => p.retailerId === 'FEED-3');
    expect(feed3).to.deep.include({ price: 850, salePrice: 700, currency: 'EUR', availability: 'preorder' });
  });

  it('refuses a feed with bad rows with 422 product_feed_invalid, each by line and column, and sends nothing', async () => {
    const shop = await newCatalog(t.app, t.owner);
    const before = (await commerce.calls()).itemsBatch ?? 0;
    const refused = await importFeed(shop.catalogId, '/bad.csv');
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    expect(refused.body.code).to.equal('product_feed_invalid');
    expect(refused.body.errors.map((error: any) => [error.path, error.code])).to.deep.equal([
      ['feed/line/3/price', 'price'],
      ['feed/line/4/availability', 'enum'],
      ['feed/line/4/image_link', 'required'],
      ['feed/line/5/id', 'duplicate'],
    ]);
    expect((await commerce.calls()).itemsBatch ?? 0).to.equal(before);
    const listed = await t.app.api.get(`/commerce/products?catalogId=${shop.catalogId}`, { token: t.owner.key });
    expect(listed.body.data).to.deep.equal([]);
  });

  it('answers 422 product_feed_unreadable naming why when the feed cannot be fetched', async () => {
    const shop = await newCatalog(t.app, t.owner);
    const refused = await importFeed(shop.catalogId, '/missing.csv');
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    expect(refused.body.code).to.equal('product_feed_unreadable');
    expect(refused.body.detail).to.match(/HTTP 404/);
  });
});
