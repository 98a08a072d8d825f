import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { until } from '../../support/wait.js';
import { creating, finishedBatch, newCatalog, product, sendBatch, testCommerceSettings } from './support.js';

describeApi(
  'products — GET|POST|DELETE /commerce/products',
  { settings: { ...testCommerceSettings({ COMMERCE_ANSWER_WAIT_MS: '5000' }) } },
  (t) => {
    const { commerce } = t.sandbox;
    const list = (query: string) => t.app.api.get(`/commerce/products?${query}`, { token: t.owner.key });

    it('creates one product on the platform at once: synced, with the platform’s id, the price in the currency’s own exponent', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const created = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product('JPY-1', { price: 1500, currency: 'JPY' }) },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({ retailerId: 'JPY-1', price: 1500, currency: 'JPY', reviewStatus: 'pending' });
      expect(created.body.sync).to.include({ status: 'synced', operation: 'create', batchId: null });
      const onPlatform = (await commerce.onPlatform(shop.platformCatalogId)).products;
      expect(onPlatform.map((p) => [p.id, p.data.price])).to.deep.equal([[created.body.platformProductId, '1500.00 JPY']]);

      const taken = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product('JPY-1') },
      });
      expect(taken.status).to.equal(409);
      expect(taken.body.code).to.equal('product_retailer_id_taken');
    });

    it('sends a three-decimal price (KWD) exactly or not at all: the product API takes cents, a batch the exact amount', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const before = (await commerce.calls()).createProduct ?? 0;
      const inexact = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product('KWD-1', { price: 12345, currency: 'KWD' }) },
      });
      expect(inexact.status).to.equal(422);
      expect(inexact.body.code).to.equal('product_rejected');
      expect(inexact.body.detail).to.match(/12\.345 KWD cannot be sent exactly; send it in a batch/);
      expect((await commerce.calls()).createProduct ?? 0, 'nothing sent, nothing rounded').to.equal(before);

      const exact = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product('KWD-1', { price: 12340, currency: 'KWD' }) },
      });
      expect(exact.status, JSON.stringify(exact.body)).to.equal(201);
      expect(exact.body).to.include({ price: 12340, currency: 'KWD' });
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [creating('KWD-2', { price: 12345, currency: 'KWD' })]);
      await finishedBatch(t.app, t.owner, sent.body.id);
      const prices = (await commerce.onPlatform(shop.platformCatalogId)).products.map((p) => [p.retailerId, p.data.price]);
      expect(prices).to.deep.equal([
        ['KWD-1', '12.34 KWD'],
        ['KWD-2', '12.345 KWD'],
      ]);
      const listed = await list(`catalogId=${shop.catalogId}&retailerId=KWD-2`);
      expect(listed.body.data[0]).to.include({ price: 12345, currency: 'KWD' });
    });

    it('answers 422 product_rejected with the platform’s reason, recording nothing', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const refused = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product('NO-IMG', { imageLink: 'https://cdn.example/missing.png' }) },
      });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('product_rejected');
      expect(refused.body.detail).to.match(/could not be downloaded/);
      expect((await list(`catalogId=${shop.catalogId}`)).body.data).to.have.length(0);
    });

    it('imports the products made elsewhere on first use and on demand, and says when it read them', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const feed = (id: string) => ({
        id,
        title: `Hand-made ${id}`,
        price: '7.50 EUR',
        availability: 'in stock',
        image_link: 'https://cdn.example/a.jpg',
        link: `https://shop.example/${id}`,
        brand: 'Acme',
      });
      await commerce.addByHand(shop.platformCatalogId, [feed('HAND-1'), feed('HAND-2')]);
      const first = await list(`catalogId=${shop.catalogId}`);
      expect(first.status).to.equal(200);
      expect(first.body.data.map((p: any) => [p.retailerId, p.price, p.currency, p.sync.status]).sort()).to.deep.equal([
        ['HAND-1', 750, 'EUR', 'synced'],
        ['HAND-2', 750, 'EUR', 'synced'],
      ]);
      const catalog = (await t.app.api.get(`/commerce/catalogs?accountId=${shop.accountId}`, { token: t.owner.key })).body.data[0];
      expect(catalog.productsReadAt).to.be.a('string');
      expect(catalog.productCount).to.equal(2);

      await commerce.addByHand(shop.platformCatalogId, [feed('HAND-3')]);
      expect((await list(`catalogId=${shop.catalogId}`)).body.data, 'read once, not at every list').to.have.length(2);
      expect((await list(`catalogId=${shop.catalogId}&refresh=true`)).body.data).to.have.length(3);
    });

    it('filters by retailer id, availability, sync status and review status (the review polled as it moves)', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [
        creating('F-1'),
        creating('F-2', { availability: 'out of stock' }),
        creating('F-3', { title: 'Replica weapon', imageLink: 'https://cdn.example/ok.jpg' }),
      ]);
      await finishedBatch(t.app, t.owner, sent.body.id);
      expect((await list(`catalogId=${shop.catalogId}&retailerId=F-2`)).body.data.map((p: any) => p.retailerId)).to.deep.equal(['F-2']);
      expect(
        (await list(`catalogId=${shop.catalogId}&availability=out%20of%20stock`)).body.data.map((p: any) => p.retailerId),
      ).to.deep.equal(['F-2']);
      expect((await list(`catalogId=${shop.catalogId}&syncStatus=synced`)).body.data).to.have.length(3);
      const rejected = await until(() => list(`catalogId=${shop.catalogId}&reviewStatus=rejected&refresh=true`), {
        done: (answer) => answer.body.data.length === 1,
        what: 'the review to reject F-3',
      });
      expect(rejected.body.data[0].retailerId).to.equal('F-3');
      expect(rejected.body.data[0].sync.errors[0]).to.include({ code: 'policy_violation' });
    });

    it('deletes products by retailer id: 204 once the platform confirms, 404 for an id not in the catalog', async () => {
      const shop = await newCatalog(t.app, t.owner);
      await finishedBatch(t.app, t.owner, (await sendBatch(t.app, t.owner, shop.catalogId, [creating('D-1'), creating('D-2')])).body.id);
      const unknown = await t.app.api.delete(`/commerce/products?catalogId=${shop.catalogId}&retailerIds=D-1,NOPE`, { token: t.owner.key });
      expect(unknown.status).to.equal(404);
      const deleted = await t.app.api.delete(`/commerce/products?catalogId=${shop.catalogId}&retailerIds=D-1`, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect((await commerce.onPlatform(shop.platformCatalogId)).products.map((p) => p.retailerId)).to.deep.equal(['D-2']);
      expect((await list(`catalogId=${shop.catalogId}`)).body.data.map((p: any) => p.retailerId)).to.deep.equal(['D-2']);
    });

    itPagesByKeyset(t, 'listProducts', async (count) => {
      const shop = await newCatalog(t.app, t.owner);
      const sent = await sendBatch(
        t.app,
        t.owner,
        shop.catalogId,
        Array.from({ length: count }, (_, i) => creating(`K-${i}`, { availability: i % 2 ? 'preorder' : 'in stock' })),
      );
      await finishedBatch(t.app, t.owner, sent.body.id);
      const ids = (sent.body.items as Array<{ productId: string }>).map((item) => item.productId).reverse();
      return {
        path: `/commerce/products?catalogId=${shop.catalogId}`,
        ids,
        filter: { query: 'availability=preorder', ids: ids.filter((_, i) => (count - 1 - i) % 2 === 1) },
      };
    });
  },
);
