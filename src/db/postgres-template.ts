import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../lib/logger.js';
import { loadMigrations } from './migration-source.js';
import type { PostgresBinaries } from './postgres-binaries.js';
import type { Placement } from './postgres-placement.js';

const run = promisify(execFile);

/** What initdb reads from the environment: the cluster's locale (LC_MESSAGES is set) and its time zone. */
const INITDB_ENVIRONMENT = ['LANG', 'LC_ALL', 'LC_COLLATE', 'LC_CTYPE', 'LC_MONETARY', 'LC_NUMERIC', 'LC_TIME', 'TZ', 'PGTZ'];

/**
 * Where the template of a new data folder is kept for this installation, made by `npm ci` (src/db/make-postgres-
 * template.ts): a cluster initdb made, with the service's database created and migrated. Its name says all it was made
 * from, so that one made otherwise is not found: the release, the user (the files are theirs), the environment initdb
 * read, the time zone the system had, the migrations, and `made` (the caller's credentials, initdb options, database).
 */
export async function templateFolder(binaries: PostgresBinaries, made: unknown[]): Promise<string> {
  const migrations = (await loadMigrations()).map((migration) => migration.name);
  const madeFrom = [
    binaries.version,
    process.platform,
    process.arch,
    process.getuid?.(),
    INITDB_ENVIRONMENT.map((name) => process.env[name] ?? null),
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    migrations,
    made,
  ];
  const key = createHash('sha256').update(JSON.stringify(madeFrom)).digest('hex').slice(0, 16);
  return join(templatesFolder(binaries), `postgres-${key}`);
}

export function templatesFolder(binaries: PostgresBinaries): string {
  return join(binaries.installedIn, '.cache', 'socialgate');
}

/** Copies $1 to $2 as it is, then gives the copy to $3 (uid:gid) unless that is empty. */
const COPY = 'cp -R -p "$1" "$2" && { [ -z "$3" ] || chown -R "$3" "$2"; }';

/**
 * Copies the template into the empty `placement.dataDir`, given to the user the server runs as; false, and nothing
 * copied, when there is no template or the copy failed (initdb then makes the cluster). Copied beside it and renamed
 * into place, so that a copy cut short is never taken for a cluster. One program does it all, beside the modules
 * this process loads meanwhile: each step awaited here would wait for them.
 */
export async function copyTemplate(template: string, placement: Placement, logger?: Logger): Promise<boolean> {
  const { dataDir, runAs } = placement;
  if (!existsSync(join(template, 'PG_VERSION')) || readdirSync(dataDir).length > 0) return false;
  const copy = `${dataDir}.template-copy`;
  try {
    rmSync(copy, { recursive: true, force: true }); // a copy cut short
    await run('/bin/sh', ['-c', COPY, 'socialgate-template-copy', template, copy, runAs ? `${runAs.uid}:${runAs.gid}` : '']);
    renameSync(copy, dataDir);
    return true;
  } catch (error) {
    logger?.warn({ err: error, template }, 'could not copy the template of a new data folder: initdb makes it instead');
    rmSync(copy, { recursive: true, force: true });
    return false;
  }
}
