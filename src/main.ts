import { once } from 'node:events';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import { boot } from './boot.js';
import { loadConfig } from './lib/config.js';
import { createLogger } from './lib/logger.js';

const started = performance.now();
const config = loadConfig();
const logger = createLogger(config.logLevel);

async function main(): Promise<void> {
  const { services, shutdown } = await boot(config, { logger });
  let server: Server | undefined;
  if (config.role !== 'worker') {
    server = createApp(services).listen(config.port, config.host);
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
    if (server) {
      server.close();
      server.closeAllConnections();
    }
    await shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  logger.fatal({ err: error }, 'could not start');
  process.exit(1);
});
