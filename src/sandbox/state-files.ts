import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** JSON that keeps the shapes the platforms' states are made of: Maps, Sets and bigints. */
function encode(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value.entries()] };
  if (value instanceof Set) return { $set: [...value.values()] };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  return value;
}

function decode(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const tagged = value as { $map?: Array<[unknown, unknown]>; $set?: unknown[]; $bigint?: string };
  if (tagged.$map) return new Map(tagged.$map);
  if (tagged.$set) return new Set(tagged.$set);
  if (tagged.$bigint !== undefined) return BigInt(tagged.$bigint);
  return value;
}

/**
 * What each platform of the sandbox keeps across restarts (its bots, tokens, webhooks, id counters), one JSON file
 * per platform in a folder; with no folder, nothing is kept (a sandbox that lives as long as its process).
 */
export class SandboxStateFiles {
  constructor(private readonly dir: string | null) {
    if (dir) mkdirSync(dir, { recursive: true });
  }

  /** The platform's state as last written, or undefined on a first start. */
  read(platform: string): unknown {
    if (!this.dir) return undefined;
    try {
      return JSON.parse(readFileSync(join(this.dir, `${platform}.json`), 'utf8'), decode) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Written whole and renamed into place, so a process killed while writing leaves the previous state. */
  write(platform: string, state: unknown): void {
    if (!this.dir) return;
    const file = join(this.dir, `${platform}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(state, encode));
    renameSync(`${file}.tmp`, file);
  }
}
