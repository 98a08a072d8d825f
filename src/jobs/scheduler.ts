import { Agenda, type Job } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { MongoBackend } from '@agendajs/mongo-backend';
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

/**
 * Agenda on the service's own PostgreSQL by default (MONGODB_URL selects its MongoDB backend). Every process
 * can enqueue; only a process of the worker role calls start() and runs jobs.
 */
export class Scheduler {
  readonly agenda: Agenda;
  private processing = false;

  constructor(private readonly options: SchedulerOptions) {
    const backend = options.mongodbUrl
      ? new MongoBackend({ address: options.mongodbUrl, collection: 'agendaJobs' })
      : new PostgresBackend({ connectionString: options.databaseUrl, tableName: 'agenda_jobs' });
    this.agenda = new Agenda({
      backend,
      name: `socialgate-${process.pid}`,
      processEvery: options.processEvery ?? 5000,
      defaultLockLifetime: options.lockLifetimeMs ?? 10 * 60 * 1000,
      defaultConcurrency: 20,
      maxConcurrency: 100,
    });
    this.agenda.on('error', (error) => options.logger.error({ err: error }, 'scheduler error'));
    this.agenda.on('fail', (error: unknown, job: { attrs: { name: string } }) => {
      options.logger.warn({ err: error, job: job.attrs.name }, 'job failed');
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
  }

  async startProcessing(): Promise<void> {
    await this.agenda.start();
    this.processing = true;
  }

  isProcessing(): boolean {
    return this.processing;
  }

  async stop(): Promise<void> {
    this.processing = false;
    await this.agenda.stop(true);
  }
}
