import { expect } from 'chai';
import { ClosablePool } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/lib/logger.js';
import { adminUrl } from '../fixtures.js';

describe('ClosablePool — the scheduler’s connections, closed for good', () => {
  const logger = createLogger('silent');

  /** How many of the server's sessions have one of these process ids. */
  async function sessionsOf(pids: number[]): Promise<number> {
    const probe = new ClosablePool(adminUrl(), logger, () => false);
    try {
      const { rows } = await probe.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1)', [pids]);
      return rows[0]!.n;
    } finally {
      await probe.close();
    }
  }

  it('closes every socket, a client given back late included', async () => {
    const pool = new ClosablePool(adminUrl(), logger, () => false);
    const idle = await pool.pool.connect();
    const late = await pool.pool.connect();
    const pids = [idle, late].map((client) => (client as unknown as { processID: number }).processID);
    idle.release();
    setTimeout(() => late.release(), 100);
    await pool.close();
    expect(await sessionsOf(pids)).to.equal(0);
  });

  it('closes a client its holder never gives back (a LISTEN connection re-made while stopping), after a moment', async () => {
    const pool = new ClosablePool(adminUrl(), logger, () => false);
    const kept = await pool.pool.connect();
    await kept.query('LISTEN some_channel');
    const pid = (kept as unknown as { processID: number }).processID;
    // Without that, close() fails: its connections did not close in time.
    await pool.close();
    expect(await sessionsOf([pid])).to.equal(0);
  });
});
