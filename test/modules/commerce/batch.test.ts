import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { creating, finishedBatch, newCatalog, sendBatch, testCommerceSettings } from './support.js';

describeApi(
  'batchProducts — POST /commerce/products/batch',
  { settings: { ...testCommerceSettings({ COMMERCE_PLATFORM_BATCH_SIZE: '3' }) } },
  (t) => {
    const { commerce } = t.sandbox;

    it('answers 202 and settles each item: the lines the platform refused fail with its reasons, the others succeed', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [
        creating('OK-1'),
        creating('NO-IMAGE', { imageLink: 'https://cdn.acme-coffee.example/missing.jpg' }),
        creating('OK-2', { price: 1500, currency: 'JPY' }),
        creating('BAD-CURRENCY', { currency: 'MNT' }),
        creating('OK-3'),
      ]);
      expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
      expect(sent.body).to.include({ status: 'processing', itemCount: 5 });
      expect(sent.body.items.map((item: { status: string }) => item.status)).to.deep.equal(Array(5).fill('pending'));

      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 3, failedCount: 2 });
      expect(batch.items.map((item: { status: string }) => item.status)).to.deep.equal([
        'succeeded',
        'failed',
        'succeeded',
        'failed',
        'succeeded',
      ]);
      expect(batch.items[1].errors[0]).to.include({ code: 'platform_rejected', field: 'imageLink' });
      expect(batch.items[1].errors[0].message).to.match(/could not be downloaded/);
      expect(batch.items[3].errors[0]).to.include({ field: 'price' });

      const onPlatform = await commerce.onPlatform(shop.platformCatalogId);
      expect(onPlatform.products.map((p) => p.retailerId).sort()).to.deep.equal(['OK-1', 'OK-2', 'OK-3']);
      expect(onPlatform.products.find((p) => p.retailerId === 'OK-2')!.data.price, 'a zero-decimal currency').to.equal('1500 JPY');
      expect(onPlatform.products.find((p) => p.retailerId === 'OK-1')!.data.price).to.equal('12.90 EUR');

      const listed = await t.app.api.get(`/commerce/products?catalogId=${shop.catalogId}&batchId=${batch.id}&limit=100`, {
        token: t.owner.key,
      });
      expect(listed.status).to.equal(200);
      const byRetailerId = new Map(listed.body.data.map((p: any) => [p.retailerId, p]));
      const ok = byRetailerId.get('OK-1') as any;
      expect(ok.sync).to.include({ status: 'synced', operation: 'create', batchId: batch.id });
      expect(ok.platformProductId).to.equal(onPlatform.products.find((p) => p.retailerId === 'OK-1')!.id);
      expect(ok.reviewStatus).to.be.oneOf(['pending', 'approved']);
      const refused = byRetailerId.get('NO-IMAGE') as any;
      expect(refused.sync.status).to.equal('failed');
      expect(refused.sync.errors[0].message).to.match(/could not be downloaded/);
    });

    it('sends a batch larger than the platform batch size as several platform batches', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const before = (await commerce.calls()).itemsBatch ?? 0;
      const sent = await sendBatch(
        t.app,
        t.owner,
        shop.catalogId,
        Array.from({ length: 7 }, (_, i) => creating(`SPLIT-${i}`)),
      );
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 7, failedCount: 0 });
      expect((await commerce.calls()).itemsBatch! - before, 'platform batches of at most 3').to.equal(3);
      expect((await commerce.onPlatform(shop.platformCatalogId)).products).to.have.length(7);
    });

    it('a lost answer on a batch submit: the batch is sent again and nothing is created twice', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const before = (await commerce.calls()).itemsBatch ?? 0;
      await commerce.configure({ loseNextBatchAnswer: true });
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [creating('LOST-1'), creating('LOST-2')]);
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 2, failedCount: 0 });
      expect((await commerce.calls()).itemsBatch! - before, 'the lost send and the one after it').to.equal(2);
      const onPlatform = await commerce.onPlatform(shop.platformCatalogId);
      expect(onPlatform.products.map((p) => p.retailerId).sort()).to.deep.equal(['LOST-1', 'LOST-2']);
      const listed = await t.app.api.get(`/commerce/products?catalogId=${shop.catalogId}`, { token: t.owner.key });
      expect(listed.body.data.map((p: any) => p.platformProductId).sort()).to.deep.equal(onPlatform.products.map((p) => p.id).sort());
    });

    it('judges at once what the records can: a CREATE of a taken retailer id, an UPDATE or DELETE of an unknown one', async () => {
      const shop = await newCatalog(t.app, t.owner);
      await finishedBatch(t.app, t.owner, (await sendBatch(t.app, t.owner, shop.catalogId, [creating('HAVE'), creating('KEEP')])).body.id);
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [
        creating('HAVE'),
        { method: 'UPDATE', retailerId: 'NOPE', data: { inventory: 3 } },
        { method: 'DELETE', retailerId: 'NOPE-2' },
        { method: 'UPDATE', retailerId: 'KEEP', data: { price: 990, availability: 'out of stock' } },
      ]);
      expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
      expect(sent.body.items.map((item: any) => [item.status, item.errors[0]?.code ?? null])).to.deep.equal([
        ['failed', 'retailer_id_taken'],
        ['failed', 'not_found'],
        ['failed', 'not_found'],
        ['pending', null],
      ]);
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 1, failedCount: 3 });
      const kept = (await commerce.onPlatform(shop.platformCatalogId)).products.find((p) => p.retailerId === 'KEEP')!;
      expect(kept.data).to.include({ price: '9.90 EUR', availability: 'out of stock' });
    });

    it('refuses a retailer id twice and data on a DELETE with 400, recording nothing', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const twice = await sendBatch(t.app, t.owner, shop.catalogId, [creating('A'), creating('A')]);
      expect(twice.status).to.equal(400);
      expect(twice.body.errors[0].path).to.equal('body/requests/1/retailerId');
      const deleteWithData = await sendBatch(t.app, t.owner, shop.catalogId, [
        { method: 'DELETE', retailerId: 'A', data: { inventory: 1 } },
      ]);
      expect(deleteWithData.status).to.equal(400);
      expect(await t.app.services.db('commerceBatches').where({ catalogId: shop.catalogId })).to.have.length(0);
    });
  },
);
