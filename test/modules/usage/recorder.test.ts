import { expect } from 'chai';
import type { Knex } from 'knex';
import { createLogger } from '../../../src/lib/logger.js';
import { UsageRecorder } from '../../../src/modules/usage/recorder.js';

/** A database that fails the first `failures` writes and keeps the rows of the others. */
function flakyDatabase(failures: number): { db: Knex; written: Array<Array<{ counter: string; value: number }>> } {
  const written: Array<Array<{ counter: string; value: number }>> = [];
  const raw = async (_sql: string, [rows]: [string]) => {
    if (failures-- > 0) throw new Error('connection lost');
    written.push(JSON.parse(rows));
  };
  return { db: { raw } as unknown as Knex, written };
}

describe('UsageRecorder', () => {
  it('adds up counts in memory and writes them in one statement', async () => {
    const { db, written } = flakyDatabase(0);
    const recorder = new UsageRecorder(db, createLogger('silent'), 60_000);
    for (let i = 0; i < 1000; i += 1) recorder.record('own_1', null, 'apiRequests');
    recorder.record('own_1', 'prof_1', 'mediaStorageBytes', 512);
    await recorder.flush();
    expect(written).to.have.length(1);
    expect(written[0]!.map(({ counter, value }) => [counter, value])).to.deep.equal([
      ['apiRequests', 1000],
      ['mediaStorageBytes', 512],
    ]);
  });

  it('keeps the counts of a failed write for the next one, which still runs', async () => {
    const { db, written } = flakyDatabase(1);
    const recorder = new UsageRecorder(db, createLogger('silent'), 60_000);
    recorder.record('own_1', null, 'apiRequests', 2);
    await recorder.flush().catch(() => {});
    recorder.record('own_1', null, 'apiRequests', 3);
    await recorder.stop();
    expect(written).to.have.length(1);
    expect(written[0]![0]!.value).to.equal(5);
  });
});
