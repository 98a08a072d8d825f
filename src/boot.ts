import { join } from 'node:path';
import { connect, migrate, type Db } from './db/database.js';
import type { EmbeddedDatabase } from './db/embedded.js';
import { openDatabase, type OpenedDatabase } from './db/open.js';
import { Contract } from './http/contract.js';
import { RateLimits } from './http/rate-limit.js';
import { Scheduler } from './jobs/scheduler.js';
import { registerJobs, scheduleJobs } from './jobs/register.js';
import { AddressGuard } from './lib/address-guard.js';
import { LeaseWorker } from './lib/lease-worker.js';
import { NotificationListener } from './lib/listener.js';
import { SecretBox } from './lib/secret-box.js';
import { openStorage, storageFor, storageKeyFor } from './modules/media/storage.js';
import { warnOfUnreachablePublicUrl } from './platforms/public-url-check.js';
import { anyUnconfigured, Platforms } from './platforms/registry.js';
import { startSandbox, type Sandbox } from './sandbox/server.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './lib/logger.js';
import type { BackgroundWorker } from './modules/area.js';
import { PrincipalCache } from './modules/auth/principal-cache.js';
import { areas, incomingHandlers, partlyBuiltOperations, unbuiltOperations, webhookSources } from './modules/index.js';
import { UsageRecorder } from './modules/usage/recorder.js';
import type { Services } from './services.js';

export interface Booted {
  services: Services;
  /**
   * The areas' background workers by name (`deliveries`, `publishing`, …), in a process of the worker role: all of
   * them once `working` has begun.
   */
  workers: ReadonlyMap<string, BackgroundWorker>;
  /**
   * In a process of the worker role, the workers being made and started and the recurring jobs scheduled: begun
   * by boot() right after it returns, once the process can serve requests, and not awaited by it. It fails when
   * one of them cannot start; shutdown() waits for it first.
   */
  working: Promise<void>;
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
 * The areas' workers made (into `workers`) and started, and the recurring jobs scheduled, all at once: each worker
 * LISTENs on its channels through `listener`, a round trip per channel. All are awaited, so that a failure is
 * reported once all have started or failed, and stops them all.
 */
async function startWorking(
  services: Services,
  listener: NotificationListener,
  scheduler: Scheduler,
  workers: Map<string, BackgroundWorker>,
): Promise<void> {
  for (const area of areas) {
    for (const [name, create] of Object.entries(area.workers ?? {})) {
      const made = create(services);
      workers.set(name, 'turn' in made ? new LeaseWorker(listener, services.logger, made) : made);
    }
  }
  const started = await Promise.allSettled([scheduleJobs(scheduler), ...[...workers.values()].map((worker) => worker.start())]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Everything a process needs, for its role; the database is migrated before anything uses it. `database`: the
 * database already being opened (src/main.ts starts it before loading the rest), which boot then owns.
 */
export async function boot(
  config: Config,
  options: { logger?: Logger; database?: Promise<OpenedDatabase>; schedulerProcessEvery?: number; lockLifetimeMs?: number } = {},
): Promise<Booted> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = options.database ?? openDatabase(config, logger);
  // The contract needs no database: it is read while PostgreSQL starts in a process of its own (spawned by the
  // microtasks that run before this macrotask, unless it must first look up its user as root).
  const contractLoaded = new Promise((resolve) => setImmediate(resolve)).then(() => Contract.load());
  contractLoaded.catch(() => {}); // awaited below, unless starting failed before
  // The platform sandbox needs no database either: it starts while PostgreSQL does (on an empty data folder, its
  // wallet authority's keys are made while initdb runs).
  const sandboxStarting =
    config.sandbox.mode === 'auto' && anyUnconfigured(config.platforms)
      ? startSandbox({ port: config.sandbox.port, stateDir: join(config.dataDir, 'sandbox') })
      : undefined;
  let embedded: EmbeddedDatabase | null = null;
  let db: Db | undefined;
  let scheduler: Scheduler | undefined;
  let listener: NotificationListener | undefined;
  let principals: PrincipalCache | undefined;
  const workers = new Map<string, BackgroundWorker>();
  let sandbox: Sandbox | undefined;
  let usage: UsageRecorder | undefined;
  let rateLimits: RateLimits | undefined;
  let working: Promise<void> = Promise.resolve();
  try {
    // Both awaited to the end, so that whichever started is stopped when the other failed.
    const [opened, started] = await Promise.allSettled([database, sandboxStarting]);
    if (opened.status === 'fulfilled') embedded = opened.value.embedded;
    if (started.status === 'fulfilled') sandbox = started.value;
    if (opened.status === 'rejected') throw opened.reason;
    if (started.status === 'rejected') throw started.reason;
    const { url } = opened.value;
    await openStorage(config, logger);
    warnOfUnreachablePublicUrl(config, logger);
    const operators = config.platforms;
    if (sandbox) {
      logger.info({ url: sandbox.url }, 'platform sandbox started');
      // From here on, the configuration has what the operator left unset pointed at the sandbox.
      config = await sandbox.standIn(config);
    }
    const platforms = new Platforms(
      config.platforms,
      {
        publicUrl: config.publicUrl,
        openMedia: (mediaId, range) => storageFor(config).read(storageKeyFor(mediaId), range),
      },
      operators,
    );
    if (platforms.unavailable.size > 0) {
      logger.warn(
        { platforms: Object.fromEntries(platforms.unavailable) },
        'platforms left unconfigured with the sandbox off are not available',
      );
    }
    db = connect(url, config.databasePoolMax);
    await migrate(db);
    const contract = await contractLoaded;
    // One LISTEN connection for the process: the server wakes every listening backend on each NOTIFY, whatever its
    // channel. The principal cache subscribes before it connects, so that its name tells other processes it hears.
    listener = new NotificationListener(url, logger, 'socialgate');
    principals = await PrincipalCache.listening(listener, logger);
    await listener.start();
    scheduler = await Scheduler.create({
      databaseUrl: url,
      mongodbUrl: config.mongodbUrl,
      logger,
      ...(options.schedulerProcessEvery ? { processEvery: options.schedulerProcessEvery } : {}),
      ...(options.lockLifetimeMs ? { lockLifetimeMs: options.lockLifetimeMs } : {}),
    });
    // Both roles count usage (requests in the API, deliveries and publications in the worker).
    usage = new UsageRecorder(db, logger, config.usage.flushMs);
    usage.start();
    rateLimits = new RateLimits(db, config, logger);
    const services: Services = {
      config,
      db,
      logger,
      contract,
      scheduler,
      usage,
      rateLimits,
      principals,
      secrets: SecretBox.fromConfig(config.encryptionKey, join(config.dataDir, 'secret.key')),
      addressGuard: new AddressGuard(config.webhooks.allowedCidrs),
      platforms,
      incomingHandlers: incomingHandlers(),
      webhookSources: webhookSources(),
      // Joined here, once, so that the usage area's listings do not import the list of areas (no import cycle).
      unbuilt: { operations: unbuiltOperations(), partly: partlyBuiltOperations() },
      sandboxUrl: sandbox?.url ?? null,
      startedAt: Date.now(),
    };
    registerJobs(services);
    await scheduler.ready();
    // What src/main.ts calls ready ends with the scheduler processing; the workers start from there on.
    if (config.role !== 'api') {
      await scheduler.startProcessing();
      // Begun once the caller has had its turn (src/main.ts listens in it): making the workers and their first
      // steps took a tenth of a second.
      const processing = scheduler;
      const notifications = listener;
      working = new Promise((resolve) => setImmediate(resolve)).then(() => startWorking(services, notifications, processing, workers));
    }
    return {
      services,
      workers,
      working,
      shutdown: (closeFirst) => closeAll(closeFirst),
    };
  } catch (error) {
    await closeAll().catch(() => {});
    throw error;
  }

  async function closeAll(closeFirst?: () => Promise<void>): Promise<void> {
    scheduler?.stopComing();
    // A worker still starting is stopped once it has started (or failed to).
    await working.catch(() => undefined);
    return closeInOrder(logger, [
      ['HTTP server', () => closeFirst?.()],
      ['rate limit counts', () => rateLimits?.stop()],
      // The last started stops first.
      ...[...workers].reverse().map(([name, worker]): [string, () => Promise<void>] => [`${name} worker`, () => worker.stop()]),
      // After everything that counts has stopped, before the pool it writes through is closed.
      ['usage counts', () => usage?.stop()],
      ['scheduler', () => scheduler?.stop()],
      ['principal cache', () => principals?.stop()],
      ['notification listener', () => listener?.stop()],
      ['database pool', () => db?.destroy()],
      ['embedded PostgreSQL', () => embedded?.stop()],
      ['platform sandbox', () => sandbox?.close()],
    ]);
  }
}
