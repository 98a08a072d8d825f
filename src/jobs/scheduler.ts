import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Agenda, type AgendaBackend, type Job } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
import pg from 'pg';
import type { Logger } from '../lib/logger.js';

export interface SchedulerOptions {
  databaseUrl: string;
  mongodbUrl: string | undefined;
  logger: Logger;
  /** How often the worker polls for due jobs that no notification announced (retries, for one). */
  processEvery?: number;
  /** How long a locked job may run before another worker may take it over. */
  lockLifetimeMs?: number;
}

export type JobHandler<Data> = (data: Data, job: Job<Data>) => Promise<void>;

const JOBS_TABLE = 'agenda_jobs';

/**
 * What the jobs table's comment says once the PostgreSQL backend has made its schema (its table, columns, indexes
 * and trigger): the backend's release. A start that finds it skips the backend's schema statements, which it
 * otherwise sends at every start: a dozen round trips, each taking the table's strongest lock, and a commit that
 * replaces its trigger.
 */
function schemaMark(): string {
  const entry = createRequire(import.meta.url).resolve('@agendajs/postgres-backend');
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return `schema of @agendajs/postgres-backend ${version}`;
}

/** How long stop() waits for the scheduler's PostgreSQL connections to close before it gives up on them. */
const CLOSE_TIMEOUT_MS = 5000;
/** How long a client still checked out when the pool is ending may take to be given back before it is destroyed. */
const STRAGGLER_GRACE_MS = 500;

/**
 * A pg pool that can be closed for good: pg-pool's end() resolves once it has *asked* its clients to end, not
 * once their sockets are closed, so a database stopped right after would still terminate them (57P01) and
 * the pool would re-emit that as an unhandled 'error'. This one logs errors and waits for every socket.
 */
export class ClosablePool {
  readonly pool: pg.Pool;
  private readonly open = new Set<pg.PoolClient>();
  private closing = false;

  /** `stopping`: whether the process is shutting down, when a lost connection is expected rather than news. */
  constructor(connectionString: string, logger: Logger, stopping: () => boolean) {
    this.pool = new pg.Pool({ connectionString, application_name: 'socialgate-scheduler' });
    this.pool.on('connect', (client) => this.open.add(client));
    this.pool.on('remove', (client) => this.open.delete(client));
    // An idle client whose server went away (a restart, or the embedded server stopping at shutdown).
    this.pool.on('error', (error) => {
      if (this.closing || stopping()) logger.debug({ err: error }, 'scheduler connection closed by the server during shutdown');
      else logger.warn({ err: error }, 'scheduler connection lost');
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const closed = new Promise<void>((resolve) => {
      const check = () => {
        if (this.open.size === 0) resolve();
      };
      this.pool.on('remove', check);
      check();
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), CLOSE_TIMEOUT_MS);
    });
    // A client still checked out once its holders have stopped would never be given back, and pool.end() waits for
    // every client: the backend's LISTEN connection is one, when a reconnection it began as the server dropped it
    // ends after the backend has disconnected. Such a client is destroyed, after a moment for a last release.
    const straggling = setTimeout(() => {
      for (const client of this.open) {
        try {
          client.release(true);
        } catch {
          // Given back meanwhile: the pool ends it.
        }
      }
    }, STRAGGLER_GRACE_MS);
    try {
      const outcome = await Promise.race([this.pool.end().then(() => closed), timeout]);
      if (outcome === 'timeout') throw new Error(`the scheduler's connections did not close within ${CLOSE_TIMEOUT_MS} ms`);
    } finally {
      clearTimeout(timer);
      clearTimeout(straggling);
    }
  }
}

/**
 * Agenda on the service's own PostgreSQL by default (MONGODB_URL selects its MongoDB backend). Every process
 * can enqueue; only a process of the worker role calls start() and runs jobs.
 */
export class Scheduler {
  readonly agenda: Agenda;
  private readonly backend: AgendaBackend;
  /** The PostgreSQL backend's connections: ours, not the backend's, so that stop() can close them for good. */
  private readonly pool: ClosablePool | undefined;
  private processing = false;
  private started = false;
  private stopping = false;
  private stopped: Promise<void> | undefined;

  /**
   * The MongoDB backend (and the mongodb driver, ~0.2 s of start-up to load) is imported only when
   * MONGODB_URL asks for it.
   */
  static async create(options: SchedulerOptions): Promise<Scheduler> {
    if (options.mongodbUrl) {
      const { MongoBackend } = await import('@agendajs/mongo-backend');
      return new Scheduler(options, new MongoBackend({ address: options.mongodbUrl, collection: 'agendaJobs' }));
    }
    let scheduler: Scheduler | undefined;
    const pool = new ClosablePool(options.databaseUrl, options.logger, () => scheduler?.stopping ?? false);
    let mark: string;
    let marked: boolean;
    try {
      mark = schemaMark();
      const { rows } = await pool.pool.query<{ comment: string | null }>('SELECT obj_description(to_regclass($1), $2) AS comment', [
        JOBS_TABLE,
        'pg_class',
      ]);
      marked = rows[0]?.comment === mark;
    } catch (error) {
      await pool.close().catch(() => undefined);
      throw error;
    }
    const backend = new PostgresBackend({ pool: pool.pool, tableName: JOBS_TABLE, ensureSchema: !marked });
    scheduler = new Scheduler(options, backend, pool, marked ? undefined : mark);
    return scheduler;
  }

  /** `pool`: the PostgreSQL backend's; `unmarked`: the mark its schema gets once made (schemaMark). */
  private constructor(
    private readonly options: SchedulerOptions,
    backend: AgendaBackend,
    pool?: ClosablePool,
    private unmarked?: string,
  ) {
    const { logger } = options;
    this.backend = backend;
    this.pool = pool;
    this.agenda = new Agenda({
      backend: this.backend,
      name: `socialgate-${process.pid}`,
      processEvery: options.processEvery ?? 5000,
      defaultLockLifetime: options.lockLifetimeMs ?? 10 * 60 * 1000,
      defaultConcurrency: 20,
      maxConcurrency: 100,
    });
    this.agenda.on('error', (error) => logger.error({ err: error }, 'scheduler error'));
    this.agenda.on('fail', (error: unknown, job: { attrs: { name: string } }) => {
      logger.warn({ err: error, job: job.attrs.name }, 'job failed');
    });
    // The notification channel (LISTEN on its own connection) emits 'error' when that connection drops, and
    // reconnects by itself; without a listener the 'error' would be thrown.
    const channel = this.backend.notificationChannel as unknown as
      { on?: (event: 'error', listener: (error: unknown) => void) => void } | undefined;
    channel?.on?.('error', (error) => {
      if (this.stopping) logger.debug({ err: error }, 'scheduler notification channel closed during shutdown');
      else logger.warn({ err: error }, 'scheduler notification channel lost; reconnecting');
    });
  }

  define<Data>(name: string, handler: JobHandler<Data>, options: { concurrency?: number } = {}): void {
    this.agenda.define<Data>(name, (job) => handler(job.attrs.data, job), options);
  }

  async now<Data>(name: string, data: Data): Promise<void> {
    await this.agenda.now(name, data);
  }

  async at<Data>(when: Date, name: string, data: Data): Promise<void> {
    await this.agenda.schedule(when, name, data);
  }

  async every(interval: string, name: string): Promise<void> {
    await this.agenda.every(interval, name, undefined, { skipImmediate: true });
  }

  async ready(): Promise<void> {
    await this.agenda.ready;
    if (this.unmarked && this.pool) {
      await this.pool.pool.query(`COMMENT ON TABLE ${JOBS_TABLE} IS ${pg.escapeLiteral(this.unmarked)}`);
      this.unmarked = undefined;
    }
  }

  async startProcessing(): Promise<void> {
    this.started = true;
    await this.agenda.start();
    this.processing = true;
  }

  isProcessing(): boolean {
    return this.processing;
  }

  /**
   * Stops processing (jobs it holds are unlocked for another worker), closes the notification channel and
   * then every connection, waiting until their sockets are closed. Agenda's own stop() closes nothing in a
   * process that never started processing (the API role), so the backend is closed here in any case.
   */
  /**
   * Says the process is shutting down, before stop() is reached: a connection lost from then on (the embedded
   * server may be stopping too: a Ctrl-C in a terminal reaches it as well) is logged at debug level only.
   */
  stopComing(): void {
    this.stopping = true;
  }

  stop(): Promise<void> {
    this.stopping = true;
    this.stopped ??= (async () => {
      this.processing = false;
      try {
        // Closes the channel, and the backend unless it was handed its connections (our pool).
        await this.agenda.stop(true);
      } finally {
        if (this.pool) await this.pool.close();
        else if (!this.started) await this.backend.disconnect();
      }
    })();
    return this.stopped;
  }
}
