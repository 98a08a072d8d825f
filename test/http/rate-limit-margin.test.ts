import { expect } from 'chai';
import { connect, type Db } from '../../src/db/database.js';
import { createLogger } from '../../src/lib/logger.js';
import { SharedWindows, UNCOUNTED_SHARE, type WindowSettings } from '../../src/modules/auth/shared-window.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** The per-key limit counted in batches: its error margin under N processes (README, "Rate limits"). */
describe('the per-key rate limit under several processes', () => {
  const PROCESSES = 3;
  const settings: WindowSettings = { keyPrefix: 'p', points: 1000, windowMs: 60_000 };
  const margin = PROCESSES * Math.floor(settings.points * UNCOUNTED_SHARE);
  let app: TestApp;
  let pools: Db[];
  let processes: SharedWindows[];

  before(async () => {
    app = await startTestApp();
    // Each "process" has its own pool and its own counts, as separate API processes would.
    pools = Array.from({ length: PROCESSES }, () => connect(app.services.config.databaseUrl!, 4));
    processes = pools.map((db) => new SharedWindows(db, settings, createLogger('silent')));
  });
  after(async () => {
    await Promise.all((pools ?? []).map((db) => db.destroy()));
    await app?.close();
  });

  /** `rounds` rounds of `concurrency` requests at once in each process; how many each process admitted. */
  async function hammer(principal: string, rounds: number, concurrency: number): Promise<number> {
    let admitted = 0;
    for (let round = 0; round < rounds; round += 1) {
      const counts = await Promise.all(processes.flatMap((windows) => Array.from({ length: concurrency }, () => windows.count(principal))));
      admitted += counts.filter((count) => count.consumed <= settings.points).length;
    }
    return admitted;
  }

  it(`admits the budget and at most ${UNCOUNTED_SHARE * 100} % of it more per process, however the requests interleave`, async () => {
    const admitted = await hammer('margin-key', 40, 12); // 1,440 requests for a budget of 1,000
    expect(admitted).to.be.at.least(settings.points);
    expect(admitted).to.be.at.most(settings.points + margin);
  });

  it('refuses every further request of the window once the budget is spent, in every process', async () => {
    await hammer('spent-key', 30, 12);
    for (const windows of processes) expect((await windows.count('spent-key')).consumed).to.be.above(settings.points);
  });

  it('brings the requests admitted without a round trip to the database shortly after', async () => {
    await hammer('flushed-key', 10, 10); // 300 requests, within the budget
    const counted = async () => Number((await app.services.db('rateLimits').where({ key: 'p:flushed-key' }).first())?.points ?? 0);
    const deadline = Date.now() + 2000;
    while ((await counted()) < 300 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await counted()).to.equal(300);
  });
});
