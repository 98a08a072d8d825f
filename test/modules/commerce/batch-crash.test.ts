import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { until } from '../../support/wait.js';
import { creating, finishedBatch, newCatalog, sendBatch, testCommerceSettings } from './support.js';

describeApi('batchProducts — the worker restarting mid-batch', { settings: { ...testCommerceSettings() } }, (t) => {
  const { commerce } = t.sandbox;

  it('dies after the platform took the batch and before recording its handle: the next worker follows that batch, never sends another', async function () {
    this.timeout(30_000);
    const shop = await newCatalog(t.app, t.owner);
    const worker = await CrashableWorker.standIn(t.app, 'commerce', { dieAfter: 0 });
    try {
      const before = (await commerce.calls()).itemsBatch ?? 0;
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [
        creating('CRASH-1'),
        creating('CRASH-2', { imageLink: 'https://cdn.example/missing.jpg' }),
      ]);
      await until(() => worker.dead, { done: Boolean, what: 'the worker to die after sending' });
      expect((await commerce.calls()).itemsBatch! - before, 'the platform has the batch').to.equal(1);
      const part = await t.app.services.db('commerceBatchParts').where({ batchId: sent.body.id }).first();
      expect(part, 'nothing recorded by the dead worker').to.include({ status: 'unsent', handle: null });

      await worker.replace();
      const batch = await finishedBatch(t.app, t.owner, sent.body.id);
      expect(batch).to.include({ succeededCount: 1, failedCount: 1 });
      expect((await commerce.calls()).itemsBatch! - before, 'no second send').to.equal(1);
      expect((await commerce.onPlatform(shop.platformCatalogId)).products.map((p) => p.retailerId)).to.deep.equal(['CRASH-1']);
    } finally {
      await worker.stop();
    }
  });
});
