import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/lib/logger.js';
import { adminUrl, withDatabase } from '../fixtures.js';

describe('Scheduler — its jobs table made when missing or made by another release, not at every start', () => {
  const logger = createLogger('silent');
  let url: string;

  before(async () => {
    const name = `s_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), name);
    url = withDatabase(adminUrl(), name);
  });

  /** A start of the scheduler until it can enqueue, as every process's start. */
  async function start(): Promise<void> {
    const scheduler = await Scheduler.create({ databaseUrl: url, mongodbUrl: undefined, logger });
    try {
      await scheduler.ready();
    } finally {
      await scheduler.stop();
    }
  }

  async function query<Row extends pg.QueryResultRow>(sql: string): Promise<Row[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Row>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  /** The jobs table's trigger, which the backend's schema statements drop and make again. */
  const trigger = async () =>
    (await query<{ oid: number }>("SELECT oid FROM pg_trigger WHERE tgname = 'agenda_jobs_updated_at_trigger'"))[0]?.oid;

  it('makes the table on a new database, and a later start leaves it as it is', async () => {
    await start();
    const made = await trigger();
    expect(made).to.be.a('number');
    await start();
    expect(await trigger()).to.equal(made);
  });

  it('brings a table made by another release of the backend up to this one’s schema', async () => {
    await start();
    await query(
      "ALTER TABLE agenda_jobs DROP COLUMN skip_days; COMMENT ON TABLE agenda_jobs IS 'schema of @agendajs/postgres-backend 0.0.1'",
    );
    await start();
    const columns = await query<{ name: string }>(
      "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'agenda_jobs' AND column_name = 'skip_days'",
    );
    expect(columns).to.have.length(1);
  });
});
