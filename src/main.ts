import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Config } from './config.js';
import { openDatabase, readDatabaseSettings, type DatabaseSettings } from './db/open.js';
import { answerClientError } from './http/client-error.js';
import { createLogger, logLevelOf, type Logger } from './lib/logger.js';
import { describeStartFailure } from './lib/start-failure.js';
import { BadSettingError } from './lib/start-errors.js';
import { makeVendorKeysAhead } from './sandbox/wallet/keys-ahead.js';

// Only what starts the database (and a first start's sandbox keys) is imported above: the rest of the service
// (src/boot.ts, src/app.ts and all they import) loads while PostgreSQL starts in a process of its own.

let config: Config | undefined;
/** At the default level until the settings are read: a wrong setting is said at that level too. */
let logger: Logger = createLogger('info');
/** How long requests in flight may take to finish once a stop signal came, before their connections are cut. */
const HTTP_GRACE_MS = 5000;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Stops accepting connections, lets requests in flight finish (up to HTTP_GRACE_MS), then cuts the rest. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), HTTP_GRACE_MS);
  await closed;
  clearTimeout(timer);
}

function badSetting<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new BadSettingError((error as Error).message);
  }
}

/** The log level and the database's settings: all that starting the database needs. */
function readDatabaseStart(): DatabaseSettings {
  const level = logLevelOf(process.env);
  try {
    logger = createLogger(level);
  } catch {
    throw new BadSettingError(`LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent, got "${level}"`);
  }
  return badSetting(() => readDatabaseSettings(process.env));
}

async function main(): Promise<void> {
  const settings = readDatabaseStart();
  // Before the database makes its folder in the data folder, which tells a first start.
  makeVendorKeysAhead(settings.dataDir, process.env);
  const database = openDatabase(settings, logger);
  // Its failure is boot's to report, once the settings that name its port are read.
  database.catch(() => {});
  let modules;
  try {
    modules = await Promise.all([import('./config.js'), import('./boot.js'), import('./app.js')]);
    const { loadConfig } = modules[0];
    config = badSetting(() => loadConfig());
  } catch (error) {
    await database.then(
      (opened) => opened.embedded?.stop(),
      () => undefined,
    );
    throw error;
  }
  const [, { boot }, { createApp }] = modules;
  const { services, working, shutdown } = await boot(config, { logger, database });
  let server: Server | undefined;
  if (config.role !== 'worker') {
    server = createApp(services).listen(config.port, config.host);
    server.on('clientError', answerClientError);
    try {
      await once(server, 'listening');
    } catch (error) {
      await shutdown().catch(() => undefined); // Its failures are logged; the port is what to report.
      throw error;
    }
  }
  // Ready: the process serves requests. The database is migrated, the contract read, tokens are checked against
  // announced revocations (the principal cache listens), and in the worker role the scheduler runs jobs (GET /health
  // checks it). The areas' workers are still starting (`working`): what a request leaves them (a post due, an event
  // to deliver) is a row they find once they run, moments later. The seconds count from this process's start:
  // the freshness check of the build, loading the modules and booting.
  const seconds = (performance.now() / 1000).toFixed(2);
  logger.info({ role: config.role, seconds, pid: process.pid }, 'started');
  if (server) {
    const base = config.publicUrl;
    process.stdout.write(
      [
        '',
        `  Socialgate ${config.version} is running (${config.role}) in ${seconds} s.`,
        `  API reference:  ${base}/docs`,
        `  For machines:   ${base}/llms.txt  ·  ${base}/openapi.json`,
        `  Health:         ${base}/health`,
        `  Next: sign up with  curl -X POST ${base}/auth/signup -H 'Content-Type: application/json' \\`,
        `                        -d '{"email":"you@example.com","password":"a long password"}'`,
        '  (the README walks you on from there)',
        '',
      ].join('\n') + '\n',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const listening = server;
    try {
      await shutdown(listening && (() => closeServer(listening)));
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info('stopped');
    process.exit(0);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
  try {
    await working;
  } catch (error) {
    // A worker that cannot start fails the start, as before it was ready.
    if (!stopping) {
      stopping = true;
      const listening = server;
      await shutdown(listening && (() => closeServer(listening))).catch(() => undefined); // Its failures are logged.
    }
    throw error;
  }
}

main().catch((error) => {
  const failure = describeStartFailure(error, config);
  logger.fatal({ code: failure.code, ...(failure.unforeseen ? { err: error } : {}) }, `could not start: ${failure.message}`);
  process.stderr.write(`\n  Socialgate could not start: ${failure.message}\n\n`);
  process.exit(1);
});
