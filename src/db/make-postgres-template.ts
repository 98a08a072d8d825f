import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect, migrate } from './database.js';
import { startEmbeddedPostgres, templateOf } from './embedded.js';
import { SERVICE_DATABASE } from './open.js';
import { findPostgresBinaries } from './postgres-binaries.js';
import { freePort } from './postgres-server.js';
import { templatesFolder } from './postgres-template.js';

const run = promisify(execFile);

/**
 * The template an empty data folder's start copies (src/db/postgres-template.ts), made once per installation by
 * `npm ci` (scripts/db/postgres-template.mjs) unless it is there already: initdb, the server started once to create
 * the service's database and migrate it, then stopped (a checkpoint: nothing is left to replay). That was most of such
 * a start. The templates of other sources, releases or settings are removed. Says where it is.
 */
export async function makePostgresTemplate(): Promise<string> {
  const binaries = findPostgresBinaries();
  const template = await templateOf(binaries, SERVICE_DATABASE);
  const folder = templatesFolder(binaries);
  if (!existsSync(template)) {
    const staging = await mkdtemp(join(tmpdir(), 'socialgate-template-'));
    try {
      // As root the server runs as the user postgres, which must enter it (mkdtemp makes it 0700).
      await chmod(staging, 0o755);
      const dir = join(staging, 'postgres');
      const embedded = await startEmbeddedPostgres({ dir, port: await freePort(), database: SERVICE_DATABASE, persistent: true });
      try {
        const db = connect(embedded.url, 1);
        await migrate(db).finally(() => db.destroy());
      } finally {
        await embedded.stop();
      }
      // What the run left that initdb does not: the server's command line, and the folder of its socket.
      await rm(join(dir, 'postmaster.opts'), { force: true });
      await rm(join(dir, 'socket'), { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      // Copied aside and renamed into place, so that a copy cut short is never taken for a whole one.
      const partial = `${template}.partial-${process.pid}`;
      await run('cp', ['-R', '-p', dir, partial]);
      await rename(partial, template);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  for (const entry of await readdir(folder)) {
    if (join(folder, entry) !== template) await rm(join(folder, entry), { recursive: true, force: true });
  }
  return template;
}
