import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, migrate, type Db } from './db/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { Contract } from './http/contract.js';
import { Scheduler } from './jobs/scheduler.js';
import { registerJobs, scheduleJobs } from './jobs/register.js';
import { AddressGuard } from './lib/address-guard.js';
import { SecretBox } from './lib/secret-box.js';
import { openStorage } from './modules/media/storage.js';
import { Platforms } from './platforms/registry.js';
import { startSandbox, type Sandbox } from './sandbox/server.js';
import type { Config } from './lib/config.js';
import { createLogger, type Logger } from './lib/logger.js';
import type { BackgroundWorker } from './modules/area.js';
import { PrincipalCache } from './modules/auth/principal-cache.js';
import { areas, incomingHandlers } from './modules/index.js';
import type { Services } from './services.js';

export interface Booted {
  services: Services;
  /** The areas' background workers by name (`deliveries`, `publishing`, …), in a process of the worker role. */
  workers: ReadonlyMap<string, BackgroundWorker>;
  /**
   * Stops the areas' workers and the scheduler, closes the pool and stops the embedded database, in that
   * order, each step awaited until its connections are closed. Every step runs even if one before it failed;
   * the first failure is thrown at the end. `closeFirst` (closing the HTTP server) runs before all of them.
   */
  shutdown(closeFirst?: () => Promise<void>): Promise<void>;
}

/** Runs every step in order, logging each failure, and throws the first one once all have run. */
async function closeInOrder(logger: Logger, steps: Array<[string, () => Promise<unknown> | undefined]>): Promise<void> {
  let first: unknown;
  for (const [what, step] of steps) {
    try {
      await step();
    } catch (error) {
      logger.error({ err: error }, `shutdown: stopping the ${what} failed`);
      first ??= error;
    }
  }
  if (first !== undefined) throw first;
}

/**
 * Stops the embedded server. Its stop() waits for the server process's 'exit', which never comes if the server
 * has exited already (a Ctrl-C in a terminal reaches it too); PostgreSQL removes postmaster.pid as the last
 * thing it does, so that file's absence also means it is done.
 */
async function stopEmbedded(embedded: EmbeddedDatabase, dir: string): Promise<void> {
  let gone = false;
  const pidFileGone = (async () => {
    while (!gone && existsSync(join(dir, 'postmaster.pid'))) await sleep(100);
  })();
  try {
    await Promise.race([embedded.stop(), pidFileGone]);
  } finally {
    gone = true;
  }
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
  const database = openDatabase(config, logger);
  // The contract needs no database: it is read while PostgreSQL starts in a process of its own (spawned by the
  // microtasks that run before this macrotask, unless it must first look up its user as root).
  const contractLoaded = new Promise((resolve) => setImmediate(resolve)).then(() => Contract.load());
  contractLoaded.catch(() => {}); // awaited below, unless starting failed before
  const { url, embedded } = await database;
  let db: Db | undefined;
  let scheduler: Scheduler | undefined;
  let principals: PrincipalCache | undefined;
  const workers = new Map<string, BackgroundWorker>();
  let sandbox: Sandbox | undefined;
  try {
    await openStorage(config, logger);
    if (Platforms.needSandbox(config)) {
      sandbox = await startSandbox({ port: config.sandbox.port });
      logger.info({ url: sandbox.url }, 'platform sandbox started');
    }
    db = connect(url);
    await migrate(db);
    const contract = await contractLoaded;
    principals = await PrincipalCache.start(url, logger);
    scheduler = await Scheduler.create({
      databaseUrl: url, mongodbUrl: config.mongodbUrl, logger,
      ...(options.schedulerProcessEvery ? { processEvery: options.schedulerProcessEvery } : {}),
      ...(options.lockLifetimeMs ? { lockLifetimeMs: options.lockLifetimeMs } : {}),
    });
    const services: Services = {
      config, db, logger, contract, scheduler, principals,
      secrets: SecretBox.fromConfig(config.encryptionKey, join(config.dataDir, 'secret.key')),
      addressGuard: new AddressGuard(config.webhooks.allowedCidrs),
      platforms: new Platforms(config, sandbox?.url ?? null),
      incomingHandlers: incomingHandlers(),
      sandboxUrl: sandbox?.url ?? null,
      startedAt: Date.now(),
    };
    registerJobs(services);
    await scheduler.ready();
    if (config.role !== 'api') {
      await scheduler.startProcessing();
      await scheduleJobs(scheduler);
      for (const area of areas) {
        for (const [name, create] of Object.entries(area.workers ?? {})) {
          const worker = create(services, url);
          workers.set(name, worker);
          await worker.start();
        }
      }
    }
    return {
      services,
      workers,
      shutdown: (closeFirst) => closeAll(closeFirst),
    };
  } catch (error) {
    await closeAll().catch(() => {});
    throw error;
  }

  function closeAll(closeFirst?: () => Promise<void>): Promise<void> {
    scheduler?.stopComing();
    return closeInOrder(logger, [
      ['HTTP server', () => closeFirst?.()],
      // The last started stops first.
      ...[...workers].reverse().map(([name, worker]): [string, () => Promise<void>] => [`${name} worker`, () => worker.stop()]),
      ['scheduler', () => scheduler?.stop()],
      ['principal cache', () => principals?.stop()],
      ['database pool', () => db?.destroy()],
      ['embedded PostgreSQL', () => (embedded ? stopEmbedded(embedded, join(config.dataDir, 'postgres')) : undefined)],
      ['platform sandbox', () => sandbox?.close()],
    ]);
  }
}
