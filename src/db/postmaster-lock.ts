import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a data folder's postmaster.pid says: PostgreSQL writes it when its server starts, keeps its status line
 * up to date, and removes it as the last thing it does when it stops. The lines are numbered in PostgreSQL's
 * src/include/utils/pidfile.h (1 pid, 3 start time, 4 port, 8 status).
 */
export interface PostmasterLock {
  pid: number;
  port: number;
  /** `starting`, `ready`, `stopping` or `standby`. */
  status: string;
}

export function readPostmasterLock(dataDir: string): PostmasterLock | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  // A file still being written names no pid yet: nothing to judge, and that server's start meets it anyway.
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() };
}

/** Whether a process with this id exists, whoever's it is. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
