/**
 * One PostgreSQL for the whole run: the embedded server in a throw-away folder (or DATABASE_URL's server), a
 * migrated template database, and a fresh copy of it for every test file that starts the service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, migrate } from '../src/db/database.js';
import { createDatabaseIfMissing, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { freePort } from './support/net.js';

export { mochaHooks } from './support/late-rejections.js';

export const TEMPLATE_DATABASE = 'socialgate_test_template';

let embedded: EmbeddedDatabase | undefined;
let folder: string | undefined;

/** The server's admin URL (database `postgres`), for creating per-file databases. */
export function adminUrl(): string {
  const url = process.env.SOCIALGATE_TEST_ADMIN_URL;
  if (!url) throw new Error('the mocha global setup has not run');
  return url;
}

export async function mochaGlobalSetup(): Promise<void> {
  let admin: string;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '/postgres';
    admin = url.toString();
  } else {
    folder = mkdtempSync(join(tmpdir(), 'socialgate-test-pg-'));
    embedded = await startEmbeddedPostgres({ dir: folder, port: await freePort(), database: 'postgres', persistent: false });
    admin = embedded.url;
  }
  process.env.SOCIALGATE_TEST_ADMIN_URL = admin;
  const client = connect(admin, 1);
  await client.raw(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
  await client.destroy();
  await createDatabaseIfMissing(admin, TEMPLATE_DATABASE);
  const template = connect(withDatabase(admin, TEMPLATE_DATABASE), 2);
  await migrate(template);
  await template.destroy();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await embedded?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
