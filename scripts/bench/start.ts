/**
 * How long `npm start` takes until GET /health answers 200, on an empty data folder (initdb and every migration)
 * and on the same folder again, round after round; beside each, its anchors of the same round: the part the
 * service reports in its banner (its own process, npm's time left out), and the TypeScript loader as `npm start`
 * ran it before the service was compiled (`npx tsx src/main.ts`). Figures only.
 *   npx tsx scripts/bench/start.ts [rounds=3]
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopChild, stopChildren, timeStart } from './processes.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const COMMANDS = { 'npm start': ['npm', 'start'], 'npx tsx src/main.ts': ['npx', 'tsx', 'src/main.ts'] };
const folders: string[] = [];

async function startTwice(command: string[]): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-start-'));
  folders.push(dataDir);
  // As root the embedded PostgreSQL runs as user `postgres`, which must be able to enter DATA_DIR (mkdtemp makes it 0700).
  chmodSync(dataDir, 0o755);
  const [port, pgPort] = [await freePort(), await freePort()];
  const figures: string[] = [];
  for (const folder of ['empty', 'existing']) {
    const { child, ms, reported } = await timeStart(dataDir, port, pgPort, command);
    figures.push(`${folder} ${(ms / 1000).toFixed(2)} s (service ${reported} s)`);
    await stopChild(child);
  }
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${availableParallelism()} cores; spawn until GET /health answers 200`);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const load = loadavg()[0]!.toFixed(1);
      console.log(`round ${round} ${name.padEnd(20)} ${(await startTwice(command)).join(', ')}; load ${load}`);
    }
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopChildren();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    process.exit();
  });
