import { expect } from 'chai';
import { emitEvent } from '../../../src/modules/events/emit.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { newOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { quiescent } from '../../support/wait.js';
import { assertSigned, publishedData } from '../../support/webhooks.js';

describe('a worker killed in the middle of an attempt', () => {
  let receiver: Receiver;
  let first: TestApp;
  let dying: CrashableWorker;
  let second: TestApp | undefined;
  before(async () => {
    receiver = await Receiver.start();
    first = await startTestApp({ webhooks: { leaseSeconds: 1 } });
    dying = await CrashableWorker.standIn(first, 'deliveries');
  });
  after(async () => {
    await second?.close();
    await first.close().catch(() => {});
    await receiver.close();
  });

  it('leaves a delivery that another worker completes with the same X-Service-Delivery, once in the table', async () => {
    const owner = await newOwner(first.api);
    const created = await first.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/h`, events: ['post.published'] } });
    receiver.reply = () => ({ hang: true, status: 0 });
    await emitEvent(first.services.db, {
      ownerId: owner.ownerId,
      profileId: owner.profileId,
      name: 'post.published',
      data: publishedData('x'),
    });
    const [hung] = await receiver.waitFor(1);
    // The process dies with the attempt in flight: no outcome is recorded, its lease simply runs out.
    await dying.crash();

    receiver.reply = () => ({ status: 200 });
    second = await startTestApp({
      webhooks: { leaseSeconds: 1 },
      databaseUrl: first.services.config.databaseUrl,
      encryptionKey: first.services.config.encryptionKey,
    });
    const [, completed] = await receiver.waitFor(2, 15_000);
    expect(completed!.headers['x-service-delivery']).to.equal(hung!.headers['x-service-delivery']);
    expect(completed!.rawBody).to.equal(hung!.rawBody);
    assertSigned(completed!, created.body.secret);
    await quiescent(second);
    const rows = await second.services.db('deliveries').where({ hookId: created.body.id });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ status: 'succeeded', attemptCount: 1 });
  });
});
