import { expect } from 'chai';
import { emitEvent } from '../../../src/modules/events/emit.js';
import { recordSuccesses } from '../../../src/modules/hooks/outcome.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { Receiver, type Received } from '../../support/receiver.js';
import { hookSettings, publishedData } from './support.js';

interface DeliveryView {
  id: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: Array<{ at: string; responseStatus: number | null; errorClass: string | null }>;
}

async function createHook(app: TestApp, owner: TestOwner, url: string): Promise<{ id: string }> {
  const response = await app.api.post('/hooks', { token: owner.key, body: { url, events: ['post.published'] } });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body;
}

async function deliveriesOf(app: TestApp, owner: TestOwner, hookId: string): Promise<DeliveryView[]> {
  const response = await app.api.get(`/hooks/${hookId}/deliveries`, { token: owner.key });
  expect(response.status).to.equal(200);
  return response.body.data;
}

/** Polls until `check` passes (it throws until then), for state written just after the receiver answered. */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const emit = (app: TestApp, owner: TestOwner) =>
  emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'post.published', data: publishedData('p1') });

describe('outgoing webhooks — retries', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  describe('with retries a second apart', () => {
    let app: TestApp;
    let owner: TestOwner;
    before(async () => {
      app = await startTestApp(hookSettings(receiver.caFile, { retryScheduleSeconds: [1, 1, 1] }));
    });
    beforeEach(async () => {
      // An earlier test's deliveries may still be retrying; each test sees only its own.
      await app.services.db('deliveries').whereIn('status', ['pending', 'retrying']).update({ status: 'failed' });
      owner = await newOwner(app.api);
      receiver.received.length = 0;
    });
    after(async () => {
      await app.close();
    });

    it('honours Retry-After on 429 and 503: the next attempt is not before it, though the schedule says 1 s', async () => {
      const tooMany = await createHook(app, owner, `${receiver.url}/429`);
      const unavailable = await createHook(app, owner, `${receiver.url}/503`);
      const firstOf = new Map<string, Received>();
      receiver.reply = (request) => {
        if (firstOf.has(request.path)) return { status: 204 };
        firstOf.set(request.path, request);
        return { status: Number(request.path.slice(1)), headers: { 'Retry-After': '2' } };
      };
      await emit(app, owner);
      await receiver.waitFor(2);

      // Recorded: retrying, and due no sooner than Retry-After after the attempt (the schedule alone gives ~1 s).
      for (const [hook, status] of [[tooMany, 429], [unavailable, 503]] as const) {
        const [delivery] = await eventually(async () => {
          const found = await deliveriesOf(app, owner, hook.id);
          expect(found[0]).to.include({ status: 'retrying', attemptCount: 1 });
          return found;
        });
        expect(delivery!.attempts[0]).to.include({ responseStatus: status, errorClass: 'http_status' });
        const wait = Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.attempts[0]!.at);
        expect(wait, `${status}: next attempt ${wait} ms after the first`).to.be.at.least(2000);
      }

      const all = await receiver.waitFor(4, 10_000);
      for (const path of ['/429', '/503']) {
        const [first, second] = all.filter((request) => request.path === path);
        expect(second!.headers['x-service-delivery']).to.equal(first!.headers['x-service-delivery']);
        expect(second!.at - first!.at, `${path}: second attempt after`).to.be.at.least(1990);
      }
      for (const hook of [tooMany, unavailable]) {
        await eventually(async () => expect((await deliveriesOf(app, owner, hook.id))[0]).to.include({ status: 'succeeded', attemptCount: 2 }));
      }
    });

    it('ends a delivery failed when every attempt answers 5xx, after the schedule plus one', async () => {
      const hook = await createHook(app, owner, `${receiver.url}/down`);
      receiver.reply = () => ({ status: 500, body: 'down' });
      await emit(app, owner);
      const sentHere = () => receiver.received.filter((request) => request.path === '/down');
      await eventually(async () => expect(sentHere()).to.have.length(4), 15_000);
      const [delivery] = await eventually(async () => {
        const found = await deliveriesOf(app, owner, hook.id);
        expect(found[0]).to.include({ status: 'failed', attemptCount: 4, nextAttemptAt: null });
        return found;
      });
      expect(delivery!.attempts.map((attempt) => attempt.responseStatus)).to.deep.equal([500, 500, 500, 500]);
      // Nothing more is sent once it has failed; the hook, failing for seconds only, stays active.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(sentHere()).to.have.length(4);
      expect((await app.api.get(`/hooks/${hook.id}`, { token: owner.key })).body).to.include({ active: true, disabledReason: null });
    });
    it('records many successes at once, each once and with its attempt, and stops a hook\'s failure clock', async () => {
      const flaky = await createHook(app, owner, `${receiver.url}/flaky`);
      const steady = await createHook(app, owner, `${receiver.url}/steady`);
      let failed = false;
      receiver.reply = (request) => {
        if (request.path !== '/flaky' || failed) return { status: 204 };
        failed = true;
        return { status: 500 };
      };
      await Promise.all(Array.from({ length: 25 }, () => emit(app, owner)));
      const db = app.services.db;
      const rows = await eventually(async () => {
        const found = await db('deliveries').whereIn('hookId', [flaky.id, steady.id]);
        expect(found.filter((row) => row.status === 'succeeded')).to.have.length(50);
        return found;
      }, 15_000);
      const attempts = await db('deliveryAttempts').whereIn('deliveryId', rows.map((row) => row.id));
      for (const row of rows) {
        const own = attempts.filter((attempt) => attempt.deliveryId === row.id);
        expect(own, row.id).to.have.length(row.attemptCount);
        expect(own.filter((attempt) => attempt.responseStatus === 204), row.id).to.have.length(1);
        expect(row.deliveredAt, row.id).to.be.an.instanceOf(Date);
      }
      expect(attempts).to.have.length(51);
      expect(new Set(receiver.received.map((request) => request.headers['x-service-delivery'])).size).to.equal(50);
      const hooks = await db('hooks').whereIn('id', [flaky.id, steady.id]);
      for (const hook of hooks) expect(hook).to.include({ failingSince: null, active: true }).and.to.have.property('lastSuccessAt').that.is.an.instanceOf(Date);

      // A success reported late (a worker whose lease another took over) changes nothing of a finished delivery.
      const done = rows[0]!;
      const before = await db('deliveries').where({ id: done.id }).first();
      await recordSuccesses(db, [{ delivery: { id: done.id, hookId: done.hookId }, outcome: { at: new Date(), durationMs: 1, responseStatus: 200, errorClass: null, responseSnippet: null, retryAfterSeconds: null } }]);
      expect(await db('deliveries').where({ id: done.id }).first()).to.deep.equal(before);
      expect(await db('deliveryAttempts').where({ deliveryId: done.id })).to.have.length(before.attemptCount);
    });
  });

  describe('with a hook that keeps failing past WEBHOOK_DISABLE_AFTER_SECONDS', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(hookSettings(receiver.caFile, { retryScheduleSeconds: [1, 1, 1, 1, 1, 1], disableAfterFailingSeconds: 2 }));
    });
    after(async () => {
      await app.close();
    });

    it('disables the hook with failing_for_5_days and fails what it still had to send', async () => {
      receiver.received.length = 0;
      const owner = await newOwner(app.api);
      const hook = await createHook(app, owner, `${receiver.url}/failing`);
      receiver.reply = () => ({ status: 502 });
      await emit(app, owner);
      const read = await eventually(async () => {
        const found = (await app.api.get(`/hooks/${hook.id}`, { token: owner.key })).body;
        expect(found).to.include({ active: false, disabledReason: 'failing_for_5_days' });
        return found;
      }, 15_000);
      expect(read.active).to.equal(false);
      const [delivery] = await deliveriesOf(app, owner, hook.id);
      expect(delivery).to.include({ status: 'failed', nextAttemptAt: null });
      // Not at the first failure: once failures have gone on for the setting, before the attempts ran out.
      const spans = Date.parse(delivery!.attempts.at(-1)!.at) - Date.parse(delivery!.attempts[0]!.at);
      expect(spans).to.be.at.least(1000);
      expect(delivery!.attemptCount).to.be.within(2, 6);
      const sent = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received).to.have.length(sent);
      // Events after that reach it no more.
      await emit(app, owner);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).to.have.length(sent);
    });
  });
});
