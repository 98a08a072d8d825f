import { join } from 'node:path';
import { connect, migrate, type Db } from './db/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { Contract } from './http/contract.js';
import { Scheduler } from './jobs/scheduler.js';
import { registerJobs } from './jobs/register.js';
import { AddressGuard } from './lib/address-guard.js';
import { SecretBox } from './lib/secret-box.js';
import { DeliveryWorker } from './modules/hooks/worker.js';
import type { Config } from './lib/config.js';
import { createLogger, type Logger } from './lib/logger.js';
import type { Services } from './services.js';

export interface Booted {
  services: Services;
  /** The webhook sender, in a process of the worker role. */
  deliveries: DeliveryWorker | null;
  /** Stops the scheduler, closes the pool and stops the embedded database, in that order. */
  shutdown(): Promise<void>;
}

async function openDatabase(config: Config, logger: Logger): Promise<{ url: string; embedded: EmbeddedDatabase | null }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  const embedded = await startEmbeddedPostgres({
    dir: join(config.dataDir, 'postgres'), port: config.embeddedPostgresPort, database: 'socialgate', persistent: true,
    onLog: (line) => logger.debug({ postgres: line.trim() }, 'embedded postgres'),
  });
  logger.info({ dir: join(config.dataDir, 'postgres'), port: config.embeddedPostgresPort }, 'embedded PostgreSQL started');
  return { url: embedded.url, embedded };
}

/** Everything a process needs, for its role; the database is migrated before anything uses it. */
export async function boot(config: Config, options: { logger?: Logger; schedulerProcessEvery?: number; lockLifetimeMs?: number } = {}): Promise<Booted> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { url, embedded } = await openDatabase(config, logger);
  let db: Db | undefined;
  let scheduler: Scheduler | undefined;
  let deliveries: DeliveryWorker | undefined;
  try {
    db = connect(url);
    await migrate(db);
    const contract = await Contract.load();
    scheduler = new Scheduler({
      databaseUrl: url, mongodbUrl: config.mongodbUrl, logger,
      ...(options.schedulerProcessEvery ? { processEvery: options.schedulerProcessEvery } : {}),
      ...(options.lockLifetimeMs ? { lockLifetimeMs: options.lockLifetimeMs } : {}),
    });
    const services: Services = {
      config, db, logger, contract, scheduler,
      secrets: SecretBox.fromConfig(config.encryptionKey, join(config.dataDir, 'secret.key')),
      addressGuard: new AddressGuard(config.webhooks.allowedCidrs),
      startedAt: Date.now(),
    };
    registerJobs(services);
    await scheduler.ready();
    if (config.role !== 'api') {
      await scheduler.startProcessing();
      await scheduler.every('1 hour', 'maintenance.purgeExpired');
      deliveries = new DeliveryWorker(services, url);
      await deliveries.start();
    }
    return {
      services,
      deliveries: deliveries ?? null,
      shutdown: async () => {
        await deliveries?.stop();
        await scheduler?.stop();
        await db?.destroy();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await deliveries?.stop().catch(() => {});
    await scheduler?.stop().catch(() => {});
    await db?.destroy().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
