import { expect } from 'chai';
import type { Knex } from 'knex';
import { emitEvent } from '../../../src/modules/events/emit.js';
import { newId } from '../../../src/lib/ids.js';
import { recordSuccesses } from '../../../src/modules/hooks/outcome.js';
import { describeApi, type ApiTest } from '../../support/harness.js';
import type { Received } from '../../support/receiver.js';
import { quiescent, until } from '../../support/wait.js';
import { publishedData } from '../../support/webhooks.js';

interface DeliveryView {
  id: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: Array<{ at: string; responseStatus: number | null; errorClass: string | null }>;
}

async function createHook(t: ApiTest, path: string): Promise<{ id: string }> {
  const response = await t.app.api.post('/hooks', {
    token: t.owner.key,
    body: { url: `${t.inbox.url}${path}`, events: ['post.published'] },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body;
}

async function deliveriesOf(t: ApiTest, hookId: string): Promise<DeliveryView[]> {
  const response = await t.app.api.get(`/hooks/${hookId}/deliveries`, { token: t.owner.key });
  expect(response.status).to.equal(200);
  return response.body.data;
}

/** The hook's delivery once it is in the state awaited (the receiver answers before its outcome is written). */
function deliveryOnce(t: ApiTest, hookId: string, done: (delivery: DeliveryView) => boolean, timeoutMs?: number): Promise<DeliveryView> {
  return until(async () => (await deliveriesOf(t, hookId))[0]!, {
    done,
    what: `the delivery of ${hookId}`,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}

const emit = (t: ApiTest, db: Knex = t.app.services.db) =>
  emitEvent(db, {
    ownerId: t.owner.ownerId,
    profileId: t.owner.profileId,
    name: 'post.published',
    data: publishedData('p1'),
  });

describeApi('outgoing webhooks — retries a second apart', { settings: { webhooks: { retryScheduleSeconds: [1, 1, 1] } } }, (t) => {
  it('honours Retry-After on 429 and 503: the next attempt is not before it, though the schedule says 1 s', async () => {
    const tooMany = await createHook(t, '/429');
    const unavailable = await createHook(t, '/503');
    const firstOf = new Map<string, Received>();
    t.inbox.reply = (request) => {
      if (firstOf.has(request.path)) return { status: 204 };
      firstOf.set(request.path, request);
      return { status: Number(request.path.slice(1)), headers: { 'Retry-After': '2' } };
    };
    await emit(t);
    await t.inbox.waitFor(2);

    // Recorded: retrying, and due no sooner than Retry-After after the attempt (the schedule alone gives ~1 s).
    for (const [hook, status] of [
      [tooMany, 429],
      [unavailable, 503],
    ] as const) {
      const delivery = await deliveryOnce(t, hook.id, (found) => found.status === 'retrying');
      expect(delivery).to.include({ status: 'retrying', attemptCount: 1 });
      expect(delivery.attempts[0]).to.include({ responseStatus: status, errorClass: 'http_status' });
      const wait = Date.parse(delivery.nextAttemptAt!) - Date.parse(delivery.attempts[0]!.at);
      expect(wait, `${status}: next attempt ${wait} ms after the first`).to.be.at.least(2000);
    }

    const all = await t.inbox.waitFor(4, 10_000);
    for (const path of ['/429', '/503']) {
      const [first, second] = all.filter((request) => request.path === path);
      expect(second!.headers['x-service-delivery']).to.equal(first!.headers['x-service-delivery']);
      expect(second!.at - first!.at, `${path}: second attempt after`).to.be.at.least(1990);
    }
    for (const hook of [tooMany, unavailable]) {
      expect(await deliveryOnce(t, hook.id, (found) => found.status === 'succeeded')).to.include({ status: 'succeeded', attemptCount: 2 });
    }
  });

  it('ends a delivery failed when every attempt answers 5xx, after the schedule plus one', async () => {
    const hook = await createHook(t, '/down');
    t.inbox.reply = () => ({ status: 500, body: 'down' });
    await emit(t);
    await t.inbox.waitFor(4, 15_000);
    const delivery = await deliveryOnce(t, hook.id, (found) => found.status === 'failed');
    expect(delivery).to.include({ status: 'failed', attemptCount: 4, nextAttemptAt: null });
    expect(delivery.attempts.map((attempt) => attempt.responseStatus)).to.deep.equal([500, 500, 500, 500]);
    // Nothing more is sent once it has failed; the hook, failing for seconds only, stays active.
    await quiescent(t.app);
    expect(t.inbox.received).to.have.length(4);
    expect((await t.app.api.get(`/hooks/${hook.id}`, { token: t.owner.key })).body).to.include({ active: true, disabledReason: null });
  });

  it("records many successes at once, each once and with its attempt, and stops a hook's failure clock", async () => {
    const flaky = await createHook(t, '/flaky');
    const steady = await createHook(t, '/steady');
    let failed = false;
    t.inbox.reply = (request) => {
      if (request.path !== '/flaky' || failed) return { status: 204 };
      failed = true;
      return { status: 500 };
    };
    await Promise.all(Array.from({ length: 25 }, () => emit(t)));
    const db = t.app.services.db;
    const rows = await until(() => db('deliveries').whereIn('hookId', [flaky.id, steady.id]), {
      done: (found) => found.filter((row) => row.status === 'succeeded').length === 50,
      what: '50 deliveries to succeed',
      timeoutMs: 15_000,
    });
    const attempts = await db('deliveryAttempts').whereIn(
      'deliveryId',
      rows.map((row) => row.id),
    );
    for (const row of rows) {
      const own = attempts.filter((attempt) => attempt.deliveryId === row.id);
      expect(own, row.id).to.have.length(row.attemptCount);
      expect(
        own.filter((attempt) => attempt.responseStatus === 204),
        row.id,
      ).to.have.length(1);
      expect(row.deliveredAt, row.id).to.be.an.instanceOf(Date);
    }
    expect(attempts).to.have.length(51);
    expect(new Set(t.inbox.received.map((request) => request.headers['x-service-delivery'])).size).to.equal(50);
    const hooks = await db('hooks').whereIn('id', [flaky.id, steady.id]);
    for (const hook of hooks)
      expect(hook).to.include({ failingSince: null, active: true }).and.to.have.property('lastSuccessAt').that.is.an.instanceOf(Date);

    // A success reported late (a worker whose lease another took over) changes nothing of a finished delivery.
    const done = rows[0]!;
    const before = await db('deliveries').where({ id: done.id }).first();
    await recordSuccesses(db, [
      {
        delivery: { id: done.id, hookId: done.hookId },
        outcome: { at: new Date(), durationMs: 1, responseStatus: 200, errorClass: null, responseSnippet: null, retryAfterSeconds: null },
      },
    ]);
    expect(await db('deliveries').where({ id: done.id }).first()).to.deep.equal(before);
    expect(await db('deliveryAttempts').where({ deliveryId: done.id })).to.have.length(before.attemptCount);
  });

  it('records a success without waiting for a fan-out that is inserting deliveries of the same hook', async () => {
    const hook = await createHook(t, '/busy');
    const db = t.app.services.db;
    const row = (eventId: string, lockedUntil: Date) => ({
      id: newId('dlv'),
      hookId: hook.id,
      eventId,
      ownerId: t.owner.ownerId,
      event: 'post.published',
      body: '{}',
      status: 'pending',
      maxAttempts: 1,
      nextAttemptAt: new Date(),
      lockedUntil,
    });
    // A delivery this test holds (no worker takes it), first of the hook: its success touches the hook's row. It is
    // written with its event, as a fan-out would: the worker's fan-out of that event finds it and adds none. (Written
    // after the event's commit, it raced that fan-out: a plain insert and an INSERT … ON CONFLICT of the same key,
    // each with a foreign key check on the event the other holds, can deadlock.)
    const held = await db.transaction(async (trx) => {
      const delivery = row((await emit(t, trx)).id, new Date(Date.now() + 3600_000));
      await trx('deliveries').insert(delivery);
      return delivery;
    });
    // A fan-out under way: its insert holds a key-share lock on the hook (the foreign key) until it commits.
    const fanOut = await db.transaction();
    let bound: NodeJS.Timeout | undefined;
    try {
      const event = await emitEvent(fanOut, {
        ownerId: t.owner.ownerId,
        profileId: null,
        name: 'post.published',
        data: publishedData('p2'),
      });
      await fanOut('deliveries').insert(row(event.id, new Date(Date.now() + 3600_000)));
      const outcome = {
        at: new Date(),
        durationMs: 1,
        responseStatus: 204,
        errorClass: null,
        responseSnippet: null,
        retryAfterSeconds: null,
      };
      const recorded = recordSuccesses(db, [{ delivery: held, outcome }]).then(() => 'recorded');
      const waited = new Promise((resolve) => (bound = setTimeout(resolve, 5000, 'still waiting on the fan-out')));
      expect(await Promise.race([recorded, waited])).to.equal('recorded');
    } finally {
      clearTimeout(bound);
      await fanOut.rollback();
    }
    expect(await db('hooks').where({ id: hook.id }).first())
      .to.have.property('lastSuccessAt')
      .that.is.an.instanceOf(Date);
  });
});

describeApi(
  'outgoing webhooks — a hook that keeps failing past WEBHOOK_DISABLE_AFTER_SECONDS',
  {
    settings: { webhooks: { retryScheduleSeconds: [1, 1, 1, 1, 1, 1], disableAfterFailingSeconds: 2 } },
  },
  (t) => {
    it('disables the hook with failing_for_5_days and fails what it still had to send', async () => {
      const hook = await createHook(t, '/failing');
      t.inbox.reply = () => ({ status: 502 });
      await emit(t);
      const read = await until(async () => (await t.app.api.get(`/hooks/${hook.id}`, { token: t.owner.key })).body, {
        done: (found) => found.active === false,
        what: 'the hook to be disabled',
        timeoutMs: 15_000,
      });
      expect(read).to.include({ active: false, disabledReason: 'failing_for_5_days' });
      const sent = t.inbox.received.length;
      const [delivery] = await deliveriesOf(t, hook.id);
      expect(delivery).to.include({ status: 'failed', nextAttemptAt: null });
      // Not at the first failure: once failures have gone on for the setting, before the attempts ran out.
      const spans = Date.parse(delivery!.attempts.at(-1)!.at) - Date.parse(delivery!.attempts[0]!.at);
      expect(spans).to.be.at.least(1000);
      expect(delivery!.attemptCount).to.be.within(2, 6);
      await quiescent(t.app);
      expect(t.inbox.received).to.have.length(sent);
      // Events after that reach it no more.
      await emit(t);
      await quiescent(t.app);
      expect(t.inbox.received).to.have.length(sent);
    });
  },
);
