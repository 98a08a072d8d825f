import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { newOwner } from '../../support/owners.js';
import { until } from '../../support/wait.js';
import { creating, finishedBatch, newCatalog, product, sendBatch, type Shop, testCommerceSettings } from './support.js';

describeApi(
  'one product — GET|PATCH /commerce/products/{productId}',
  { settings: { ...testCommerceSettings({ COMMERCE_ANSWER_WAIT_MS: '5000' }) } },
  (t) => {
    const { commerce } = t.sandbox;
    const create = async (shop: Shop, retailerId: string, changes: Record<string, unknown> = {}) => {
      const created = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product(retailerId, changes) },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body;
    };
    const onPlatform = async (shop: Shop, retailerId: string) =>
      (await commerce.onPlatform(shop.platformCatalogId)).products.find((p) => p.retailerId === retailerId)!.data;

    it('changes a product on the platform and in our records alike, and the platform reviews it again', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const created = await create(shop, 'P-1', { inventory: 140 });
      const changed = await t.app.api.patch(`/commerce/products/${created.id}`, {
        token: t.owner.key,
        body: { price: 1190, inventory: 96, brand: null, title: 'Winter blend' },
      });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(changed.body).to.include({ price: 1190, currency: 'EUR', inventory: 96, brand: null, title: 'Winter blend' });
      expect(changed.body.reviewStatus).to.equal('pending');
      expect(changed.body.sync).to.include({ status: 'synced', operation: 'update', batchId: null });
      const data = await onPlatform(shop, 'P-1');
      expect(data).to.include({ price: '11.90 EUR', inventory: '96', title: 'Winter blend' });
      expect(data, 'a null member is cleared on the platform').to.not.have.property('brand');
      expect((await commerce.calls()).updateProduct).to.be.at.least(1);

      const read = await until(() => t.app.api.get(`/commerce/products/${created.id}`, { token: t.owner.key }), {
        done: (answer) => answer.body.reviewStatus === 'approved',
        what: 'the platform to approve the changed product',
      });
      expect(read.body).to.include({ id: created.id, price: 1190, inventory: 96, title: 'Winter blend', brand: null });
    });

    it('sends a change whose answer was lost again when asked again: the second answer is 200, the platform changed once', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const created = await create(shop, 'LOST-1');
      await commerce.configure({ loseNextAnswerOf: 'updateProduct' });
      const lost = await t.app.api.patch(`/commerce/products/${created.id}`, { token: t.owner.key, body: { price: 990 } });
      expect(lost.status).to.equal(502);
      expect((await onPlatform(shop, 'LOST-1')).price, 'the platform did the change').to.equal('9.90 EUR');
      const again = await t.app.api.patch(`/commerce/products/${created.id}`, { token: t.owner.key, body: { price: 990 } });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body).to.include({ price: 990 });
      expect((await onPlatform(shop, 'LOST-1')).price).to.equal('9.90 EUR');
    });

    it('answers 422 product_rejected with the platform’s reason and changes nothing', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const created = await create(shop, 'REF-1');
      const refused = await t.app.api.patch(`/commerce/products/${created.id}`, {
        token: t.owner.key,
        body: { imageLink: 'https://cdn.example/missing.png', price: 100 },
      });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('product_rejected');
      expect(refused.body.detail).to.match(/could not be downloaded/);
      const read = await t.app.api.get(`/commerce/products/${created.id}`, { token: t.owner.key });
      expect(read.body).to.include({ price: 1290, imageLink: created.imageLink });
      expect((await onPlatform(shop, 'REF-1')).price).to.equal('12.90 EUR');
    });

    it('answers 409 product_sync_pending while a batch is still sending a change of the product', async () => {
      const shop = await newCatalog(t.app, t.owner);
      await commerce.configure({ processMs: 60_000 });
      try {
        const sent = await sendBatch(t.app, t.owner, shop.catalogId, [creating('PEND-1')], {});
        const item = sent.body.items[0];
        const refused = await t.app.api.patch(`/commerce/products/${item.productId}`, { token: t.owner.key, body: { price: 100 } });
        expect(refused.status).to.equal(409);
        expect(refused.body.code).to.equal('product_sync_pending');
        expect(refused.body.detail).to.include(sent.body.id);
      } finally {
        await commerce.configure({ processMs: 150 });
      }
    });

    it('answers 404 for another owner’s product, a deleted one and an unknown one', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const created = await create(shop, 'MINE-1');
      const other = await newOwner(t.app.api);
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { price: 1 }],
      ] as const) {
        const answer = await t.app.api[method](`/commerce/products/${created.id}`, { token: other.key, body });
        expect([answer.status, answer.body.code]).to.deep.equal([404, 'not_found']);
      }
      const deleted = await t.app.api.delete(`/commerce/products?catalogId=${shop.catalogId}&retailerIds=MINE-1`, { token: t.owner.key });
      expect(deleted.status).to.equal(204);
      expect((await t.app.api.get(`/commerce/products/${created.id}`, { token: t.owner.key })).status).to.equal(404);
      expect((await t.app.api.get('/commerce/products/prod_01jd3y6w7q5v8k0n2b4c6e8g1h', { token: t.owner.key })).status).to.equal(404);
    });

    it('reads one product from the platform: a change made there shows', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [creating('R-1')]);
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      await commerce.addByHand(shop.platformCatalogId, [{ id: 'R-1', title: 'Renamed by hand' }]);
      const read = await t.app.api.get(`/commerce/products/${batch.items[0].productId}`, { token: t.owner.key });
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body).to.include({ retailerId: 'R-1', title: 'Renamed by hand' });
    });
  },
);
