import { expect } from 'chai';
import pg from 'pg';
import { type ClaimLoop, type LeasedWork, LeaseWorker, type LeaseWorkerSettings } from '../../src/lib/lease-worker.js';
import { NotificationListener } from '../../src/lib/listener.js';
import { createLogger } from '../../src/lib/logger.js';
import { adminUrl } from '../fixtures.js';
import { until } from '../support/wait.js';

const CHANNEL = 'lease_worker_test';

/** Items from a list the test fills; each call stays open until the test answers it. */
class ListWork implements LeasedWork<string, string> {
  readonly due: string[] = [];
  readonly calls = new Map<string, (result: string) => void>();
  readonly recorded: string[] = [];
  /** The items of each renewal, in order. */
  readonly renewals: string[][] = [];
  /** The items given back, by each call. */
  readonly released: string[][] = [];
  /** The NOTIFYs heard (no channel: listening from now on). */
  readonly heardChannels: Array<string | null> = [];
  mostAtOnce = 0;
  private readonly watchers = new Set<() => void>();

  constructor(readonly settings: LeaseWorkerSettings) {}

  async turn(loop: ClaimLoop<string>): Promise<void> {
    // A claim takes a round trip, as a database's does: the other loop looks meanwhile.
    // As a claim statement sees the table when it starts, not when its answer arrives.
    await loop.claim(Infinity, async (n) => {
      const taken = this.due.splice(0, n);
      await new Promise((resolve) => setImmediate(resolve));
      return taken;
    });
    await loop.sleep(this.settings.pollMs, this.due.length > 0);
  }

  process(item: string): Promise<string> {
    return new Promise((resolve) => {
      this.calls.set(item, resolve);
      this.mostAtOnce = Math.max(this.mostAtOnce, this.calls.size);
      this.changed();
    });
  }

  async record(_item: string, result: string): Promise<void> {
    this.recorded.push(result);
    this.changed();
  }

  async renew(items: string[]): Promise<void> {
    this.renewals.push(items);
    this.changed();
  }

  async release(items: string[]): Promise<void> {
    this.released.push(items);
  }

  describe(item: string): Record<string, unknown> {
    return { item };
  }

  heard(channel: string | null): void {
    this.heardChannels.push(channel);
  }

  answer(item: string): void {
    const resolve = this.calls.get(item)!;
    this.calls.delete(item);
    resolve(`${item} done`);
  }

  /** Settles once `condition` holds, looked at whenever a call starts or a result is recorded. */
  when(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const look = () => {
        if (!condition()) return;
        this.watchers.delete(look);
        resolve();
      };
      this.watchers.add(look);
      look();
    });
  }

  private changed(): void {
    for (const look of [...this.watchers]) look();
  }
}

describe('LeaseWorker — claim loops that wake on NOTIFY, a limit on work in flight, and a stop that waits', () => {
  // Far longer than any test may take: only a NOTIFY wakes the loops.
  // Leases of 200 ms, renewed every 50 ms.
  const settings: LeaseWorkerSettings = {
    name: 'lease-worker-test',
    channels: [CHANNEL],
    concurrency: 2,
    pollMs: 60_000,
    loops: 2,
    leaseSeconds: 0.2,
  };
  let admin: pg.Client;
  let listener: NotificationListener;
  let work: ListWork;
  let worker: LeaseWorker<string, string>;

  before(async () => {
    admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    listener = new NotificationListener(adminUrl(), createLogger('silent'), 'lease-worker-test');
    await listener.start();
  });
  beforeEach(async () => {
    work = new ListWork(settings);
    worker = new LeaseWorker(listener, createLogger('silent'), work);
    await worker.start();
  });
  afterEach(async () => {
    for (const item of [...work.calls.keys()]) work.answer(item);
    await worker.stop();
  });
  after(async () => {
    await listener.stop();
    await admin.end();
  });

  async function add(...items: string[]): Promise<void> {
    work.due.push(...items);
    await admin.query(`NOTIFY ${CHANNEL}`);
  }

  it('works on what a NOTIFY announces at once, and records each result once', async () => {
    await add('a');
    await work.when(() => work.calls.has('a'));
    work.answer('a');
    await work.when(() => work.recorded.length === 1);
    expect(work.recorded).to.deep.equal(['a done']);
  });

  it('never has more than `concurrency` in flight, and takes the next as soon as a slot is free', async () => {
    await add('a', 'b', 'c', 'd');
    await work.when(() => work.calls.size === 2);
    expect([...work.calls.keys()]).to.deep.equal(['a', 'b']);
    work.answer('a');
    await work.when(() => work.calls.has('c'));
    work.answer('b');
    work.answer('c');
    await work.when(() => work.calls.has('d'));
    work.answer('d');
    await work.when(() => work.recorded.length === 4);
    expect(work.mostAtOnce).to.equal(2);
  });

  it('renews the lease of every item it holds, several times per lease, until its result is recorded', async () => {
    await add('a', 'b');
    await work.when(() => work.calls.size === 2);
    const since = work.renewals.length;
    await work.when(() => work.renewals.length >= since + 4);
    for (const renewal of work.renewals.slice(since)) expect(renewal.sort()).to.deep.equal(['a', 'b']);
    work.answer('a');
    await work.when(() => work.recorded.length === 1);
    const after = work.renewals.length;
    await work.when(() => work.renewals.length >= after + 2);
    for (const renewal of work.renewals.slice(after)) expect(renewal).to.deep.equal(['b']);
  });

  it('renews a lease once it is a renewal period old: an item claimed since the last renewal waits for the next', async () => {
    await worker.stop();
    // Renewed every 500 ms, each lease once it is 500 ms old.
    work = new ListWork({ ...settings, leaseSeconds: 2 });
    worker = new LeaseWorker(listener, createLogger('silent'), work);
    await worker.start();
    await add('first');
    await work.when(() => work.renewals.some((items) => items.includes('first')));
    // Half a period after a renewal: the next comes before the new item's lease is a period old.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await add('second');
    await work.when(() => work.calls.has('second'));
    const since = work.renewals.length;
    await work.when(() => work.renewals.length > since);
    expect(work.renewals[since]).to.deep.equal(['first']);
    await work.when(() => work.renewals.slice(since).some((items) => items.includes('second')));
  });

  it('stops claiming at once, waits for the work in flight and its record, then stops listening', async () => {
    await add('a');
    await work.when(() => work.calls.has('a'));
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await add('b');
    expect(stopped, 'still waiting for a').to.equal(false);
    work.answer('a');
    await stopping;
    expect(work.recorded).to.deep.equal(['a done']);
    expect(work.calls.size, 'b was never claimed').to.equal(0);
    await worker.stop();
    // Another subscriber of the process's listener hears what the stopped worker would have.
    const probe: Array<string | null> = [];
    const unlisten = await listener.listen([CHANNEL], (channel) => probe.push(channel));
    const heard = work.heardChannels.length;
    await admin.query(`NOTIFY ${CHANNEL}`);
    await until(() => probe.includes(CHANNEL), { what: 'the probe to hear the NOTIFY' });
    await unlisten();
    expect(work.heardChannels.length, 'the stopped worker heard nothing').to.equal(heard);
    const renewals = work.renewals.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(work.renewals.length, 'no renewal once stopped').to.equal(renewals);
  });

  it('with a backlog, claims that many more, renews their leases, starts them in order as slots free, and gives back those never started on stop', async () => {
    await worker.stop();
    work = new ListWork({ ...settings, loops: 1, backlog: 2 });
    worker = new LeaseWorker(listener, createLogger('silent'), work);
    await worker.start();
    await add('a', 'b', 'c', 'd', 'e', 'f', 'g');
    await work.when(() => work.calls.size === 2 && work.due.length === 3);
    expect([...work.calls.keys()]).to.deep.equal(['a', 'b']);
    // c and d wait, leased: renewed with a and b.
    const since = work.renewals.length;
    await work.when(() => work.renewals.length >= since + 2);
    expect(work.renewals.at(-1)!.sort()).to.deep.equal(['a', 'b', 'c', 'd']);
    work.answer('a');
    await work.when(() => work.calls.has('c'));
    expect([...work.calls.keys()]).to.deep.equal(['b', 'c']);
    // Its slot went to c; the place c left in the backlog, to the next claim.
    await work.when(() => work.due.length === 2);
    const stopping = worker.stop();
    await work.when(() => work.released.length === 1);
    expect(work.released).to.deep.equal([['d', 'e']]);
    work.answer('b');
    work.answer('c');
    await stopping;
    expect(work.recorded.sort()).to.deep.equal(['a done', 'b done', 'c done']);
  });
});
