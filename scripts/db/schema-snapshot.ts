/**
 * Writes the schema snapshot (src/db/schema-snapshot.sql): every migration run by knex on a new, empty database of
 * a throw-away embedded PostgreSQL, the statements each sent recorded in order. Reads are left out (what a migration
 * read only steered what it wrote, and on an empty database it always reads the same), and so is knex's bookkeeping
 * of its lock and of the applied migrations; knex's own tables are kept. With --check it records them again and
 * fails when the file differs. Run it after adding a migration; test/db/schema-snapshot.test.ts checks it was.
 *   npm run db:snapshot [-- --check]
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect } from '../../src/db/database.js';
import { createDatabaseIfMissing, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { loadMigrations, migrationSource } from '../../src/db/migration-source.js';
import { SCHEMA_SNAPSHOT } from '../../src/db/schema-snapshot.js';
import { freePort } from '../bench/processes.js';

const HEADER = `-- The statements every migration named below sent to a new, empty database, in order: a new database gets
-- them in one transaction instead (src/db/schema-snapshot.ts). Written by \`npm run db:snapshot\`: do not edit.
`;

interface Sent {
  sql: string;
  bindings?: unknown[];
  method?: string;
  __knexTxId?: string;
}

/** A value knex sent as a parameter, as a literal of unknown type, which the server types as it typed the parameter. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return pg.escapeLiteral(String(value));
  if (Array.isArray(value)) return pg.escapeLiteral(arrayText(value));
  if (Object.getPrototypeOf(value) === Object.prototype) return pg.escapeLiteral(JSON.stringify(value));
  throw new Error(
    `a migration sent a parameter the snapshot cannot write as a literal (${Object.prototype.toString.call(value)}): write it in the migration's SQL`,
  );
}

/** An array as node-postgres sends it: PostgreSQL's array text, every element quoted. */
function arrayText(items: unknown[]): string {
  const elements = items.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayText(item);
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') return literal(item); // refuses it
    return `"${String(item).replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${elements.join(',')}}`;
}

function statement({ sql, bindings = [] }: Sent): string {
  const text = sql.replace(/\$(\d+)/g, (placeholder, position: string) =>
    Number(position) <= bindings.length ? literal(bindings[Number(position) - 1]) : placeholder,
  );
  const trimmed = text.trim();
  return trimmed.endsWith(';') ? trimmed : `${trimmed};`;
}

/** A read whose answer only steers the code that sent it: knex's checks and queries (a raw statement is kept). */
const isRead = ({ sql, method }: Sent) => method !== 'raw' && /^\s*select\b/i.test(sql);

/** The snapshot's text, recorded on a new database of the server at `adminUrl`, which is dropped again. */
export async function recordSchemaSnapshot(adminUrl: string): Promise<string> {
  const database = `snapshot_${process.pid}_${Date.now()}`;
  await createDatabaseIfMissing(adminUrl, database);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const db = connect(url.toString(), 1);
  const knexTables: string[] = [];
  const byMigration: Array<{ name: string; statements: string[] }> = [];
  let running: { name: string; statements: string[] } | undefined;
  db.on('query', (sent: Sent) => {
    if (isRead(sent)) return;
    if (running) running.statements.push(statement(sent));
    // Before its transaction, knex makes its tables; in it, it locks and records.
    else if (!sent.__knexTxId) knexTables.push(statement(sent));
  });
  try {
    const recorded = (await loadMigrations()).map((migration) => ({
      ...migration,
      up: async (trx: typeof db) => {
        running = { name: migration.name, statements: [] };
        byMigration.push(running);
        try {
          await migration.up(trx);
        } finally {
          running = undefined;
        }
      },
    }));
    await db.migrate.latest({ migrationSource: migrationSource(recorded) });
  } finally {
    await db.destroy();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE ${pg.escapeIdentifier(database)}`).finally(() => admin.end());
  }
  return [
    HEADER,
    "-- knex's own tables",
    ...knexTables,
    ...byMigration.flatMap(({ name, statements }) => ['', `-- migration: ${name}`, ...statements]),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'socialgate-snapshot-'));
  // As root the embedded PostgreSQL runs as user `postgres`, which must be able to enter it (mkdtemp makes it 0700).
  chmodSync(folder, 0o755);
  const server = await startEmbeddedPostgres({
    dir: join(folder, 'postgres'),
    port: await freePort(),
    database: 'postgres',
    persistent: false,
  });
  try {
    const text = await recordSchemaSnapshot(server.url);
    const file = fileURLToPath(SCHEMA_SNAPSHOT);
    if (!process.argv.includes('--check')) writeFileSync(file, text);
    else if (readFileSync(file, 'utf8') !== text) throw new Error(`${file} is not what the migrations send now: run npm run db:snapshot`);
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
