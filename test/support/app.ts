import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { boot } from '../../src/boot.js';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { WebhookSettings } from '../../src/modules/hooks/settings.js';
import type { PublishingSettings } from '../../src/modules/publishing/settings.js';
import { createLogger } from '../../src/lib/logger.js';
import type { BackgroundWorker } from '../../src/modules/area.js';
import type { Services } from '../../src/services.js';
import type { IntakeSettings } from '../../src/modules/webhooks/settings.js';
import { adminUrl, TEMPLATE_DATABASE, withDatabase } from '../fixtures.js';
import { ApiClient } from './client.js';
import { reservePort } from './net.js';
import { testCertificate } from './tls.js';

export interface TestApp {
  url: string;
  services: Services;
  /** The app's background workers, by the areas' names for them (`src/modules/<area>/index.ts`, `workers`). */
  workers: ReadonlyMap<string, BackgroundWorker>;
  deliveries: BackgroundWorker | null;
  publishing: BackgroundWorker | null;
  ai: BackgroundWorker | null;
  automations: BackgroundWorker | null;
  intake: BackgroundWorker | null;
  api: ApiClient;
  close(): Promise<void>;
}

/** Settings of a test app: any of the service's, with its webhook, publishing and intake settings changed one by one. */
export type TestAppSettings = Omit<Partial<Config>, 'webhooks' | 'publishing' | 'intake'> & {
  webhooks?: Partial<WebhookSettings>;
  publishing?: Partial<PublishingSettings>;
  intake?: Partial<IntakeSettings>;
};

/**
 * What every test app starts with, besides a database and a folder of its own: webhooks may go to this machine
 * (127.0.0.0/8) and the tests' certificate is trusted, so the receiver and the file server are reachable; webhook
 * retries come a second apart; publishing has short leases, retries a second apart, and takes posts 2 s ahead;
 * platform webhook intake has short leases and retries a second apart.
 */
async function testDefaults(settings: TestAppSettings): Promise<Pick<Config, 'webhooks' | 'publishing' | 'intake'>> {
  const defaults = loadConfig({});
  const { caFile } = await testCertificate();
  return {
    webhooks: {
      ...defaults.webhooks,
      allowedCidrs: ['127.0.0.0/8'],
      caFile,
      retryScheduleSeconds: [1, 1, 1],
      leaseSeconds: 2,
      ...settings.webhooks,
    },
    publishing: {
      ...defaults.publishing,
      leaseSeconds: 2,
      retryScheduleSeconds: [1, 1],
      minScheduleAheadSeconds: 2,
      ...settings.publishing,
    },
    intake: { ...defaults.intake, leaseSeconds: 2, retryScheduleSeconds: [1, 1], ...settings.intake },
  };
}

/** The whole service on a fresh copy of the migrated database, listening on a free port. */
export async function startTestApp(settings: TestAppSettings = {}): Promise<TestApp> {
  const database = `t_${randomBytes(6).toString('hex')}`;
  await createDatabaseIfMissing(adminUrl(), database, TEMPLATE_DATABASE);
  // The service must know its own address before it starts: platforms (the sandbox) call it back there.
  const { port, release } = await reservePort();
  // A data folder of its own (media files), so that test processes never share or clean another's files.
  const ownDataDir = settings.dataDir ? null : mkdtempSync(join(tmpdir(), 'socialgate-test-'));
  const config: Config = {
    ...loadConfig({}),
    ...(ownDataDir ? { dataDir: ownDataDir } : {}),
    publicUrl: `http://127.0.0.1:${port}`,
    sandbox: { mode: 'auto', port: 0 },
    databaseUrl: withDatabase(adminUrl(), database),
    logLevel: process.env.LOG_LEVEL ?? 'silent',
    encryptionKey: randomBytes(32).toString('base64'),
    ...settings,
    ...(await testDefaults(settings)),
  };
  const logger = createLogger(config.logLevel);
  const booted = boot(config, { logger, schedulerProcessEvery: 200, lockLifetimeMs: 5000 });
  // The port is held until the service is about to listen on it, whether it boots or not.
  const { services, workers, working, shutdown } = await booted.finally(release);
  // Tests begin with every worker running.
  await working.catch(async (error: unknown) => {
    await shutdown().catch(() => undefined);
    throw error;
  });
  const server: Server = createApp(services).listen(port, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    services,
    workers,
    deliveries: workers.get('deliveries') ?? null,
    publishing: workers.get('publishing') ?? null,
    ai: workers.get('ai') ?? null,
    automations: workers.get('automations') ?? null,
    intake: workers.get('intake') ?? null,
    api: new ApiClient(url, services.contract),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await shutdown();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}
