import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { until } from '../../support/wait.js';
import { creating, finishedBatch, newCatalog, sendBatch, testCommerceSettings } from './support.js';

describeApi(
  'batchProducts — a platform that loses or never finishes a batch',
  { settings: { ...testCommerceSettings({ COMMERCE_BATCH_GIVE_UP_SECONDS: '3' }) } },
  (t) => {
    const { commerce } = t.sandbox;

    it('reports a batch the platform never finishes as failed, platform_timeout, after the stated time', async function () {
      this.timeout(30_000);
      const shop = await newCatalog(t.app, t.owner);
      await commerce.configure({ stuckBatches: 1 });
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [creating('STUCK-1'), creating('STUCK-2')]);
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 0, failedCount: 2 });
      expect(batch.items[0].errors[0]).to.deep.equal({
        code: 'platform_timeout',
        message: 'The platform did not finish the batch within 3 s.',
        field: null,
      });
      const listed = await t.app.api.get(`/commerce/products?catalogId=${shop.catalogId}&syncStatus=failed`, { token: t.owner.key });
      expect(listed.body.data.map((p: any) => p.retailerId).sort()).to.deep.equal(['STUCK-1', 'STUCK-2']);
    });

    it('sends a batch again when the platform no longer knows its handle (it restarted), creating nothing twice', async () => {
      const shop = await newCatalog(t.app, t.owner);
      await commerce.configure({ processMs: 60_000 });
      const before = (await commerce.calls()).itemsBatch ?? 0;
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [creating('FORGOT-1')]);
      await until(() => commerce.calls(), { done: (calls) => (calls.itemsBatch ?? 0) > before, what: 'the batch to be sent' });
      await commerce.forgetHandles();
      await commerce.configure({ processMs: 150 });
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 1, failedCount: 0 });
      expect((await commerce.calls()).itemsBatch! - before, 'sent, then sent again').to.equal(2);
      expect((await commerce.onPlatform(shop.platformCatalogId)).products.map((p) => p.retailerId)).to.deep.equal(['FORGOT-1']);
    });

    it('replays the first answer for a batch sent again with the same Idempotency-Key, sending nothing more', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const headers = { 'Idempotency-Key': 'batch-retried-by-the-client' };
      const first = await sendBatch(t.app, t.owner, shop.catalogId, [creating('ONCE')], headers);
      await finishedBatch(t.app, t.owner, first.body.id);
      const calls = (await commerce.calls()).itemsBatch;
      const again = await sendBatch(t.app, t.owner, shop.catalogId, [creating('ONCE')], headers);
      expect(again.status).to.equal(202);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.id).to.equal(first.body.id);
      expect((await commerce.calls()).itemsBatch).to.equal(calls);
    });
  },
);
