import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUp, Scene, serviceEnvironment } from '../startup/service.js';
import { blocksOf, runnable } from './blocks.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const BROWSER = fileURLToPath(new URL('./browser.ts', import.meta.url));

/**
 * What the walk's shell knows besides the README: `curl` reports each answer's status on stderr (the test fails
 * on any outside 2xx that the README does not expect with `# expect NNN`), and `open` is a person's browser.
 * `npm start` starts the service in the background, as a second terminal would, and returns once it answers
 * /health; run again (a block that restarts it with settings), it first stops the running one as Ctrl-C does.
 * `npm ci` is what installed the clone the test runs in, so it is not repeated.
 */
const PREAMBLE = `set -eo pipefail
curl() { command curl -w "%{stderr}@@ %{http_code} \${SG_EXPECT:-2xx} %{method} %{url_effective}\\n" "$@"; }
open() { tsx ${BROWSER} "$1"; }
sg_stop() {
  [ -s "$SG_PIDFILE" ] || return 0
  kill -INT -- -"$(cat "$SG_PIDFILE")" 2>/dev/null || true
  while kill -0 "$(cat "$SG_PIDFILE")" 2>/dev/null; do sleep 0.2; done
  : > "$SG_PIDFILE"
}
npm() {
  case "$1" in
    ci) ;;
    start)
      sg_stop
      (cd "$SG_REPOSITORY" && exec setsid npm start >> "$SG_SERVICE_LOG" 2>&1) &
      echo $! > "$SG_PIDFILE"
      local deadline=$((SECONDS + 120))
      until command curl -sf "http://127.0.0.1:$PORT/health" > /dev/null; do
        kill -0 "$(cat "$SG_PIDFILE")" 2>/dev/null && [ $SECONDS -lt $deadline ] || { echo "npm start did not answer /health" >&2; tail -40 "$SG_SERVICE_LOG" >&2; return 1; }
        sleep 0.2
      done ;;
    *) command npm "$@" ;;
  esac
}
`;

interface Answer {
  status: string;
  expected: string;
  request: string;
}

/** Runs the script in bash in the scene's folder, with the service's settings: its output, and the curl answers it reported. */
function walk(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; answers: Answer[] }> {
  return new Promise((resolve) => {
    const shell = spawn('bash', ['-c', script], {
      cwd,
      timeout: 600_000,
      env: { ...env, PATH: `${join(REPOSITORY, 'node_modules/.bin')}:${process.env.PATH}` },
    });
    let output = '';
    let reports = '';
    shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      reports += chunk.toString();
    });
    shell.on('close', (code) => {
      const answers = [...reports.matchAll(/^@@ (\d{3}) (\S+) (\S+ \S+)$/gm)].map(([, status, expected, request]) => ({
        status: status!,
        expected: expected!,
        request: request!,
      }));
      resolve({ code, output, answers });
    });
  });
}

/** Stops what the walk's `npm start` left running, however the walk ended. */
function stopService(pidFile: string): void {
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Stopped by the walk already.
  }
}

describe('the README, word for word', () => {
  after(cleanUp);

  it('runs every ```sh block in order, `npm start` and its restarts included, each answer 2xx or the status it says to expect, and the receiver gets the signed deliveries', async function () {
    this.timeout(900_000);
    const scene = await Scene.create();
    const { PORT, SANDBOX_PORT } = scene.settings;
    const addresses = { 'http://localhost:8080': `http://localhost:${PORT}`, 'http://127.0.0.1:8081': `http://127.0.0.1:${SANDBOX_PORT}` };
    const blocks = blocksOf(join(REPOSITORY, 'README.md')).filter((block) => block.lang === 'sh');
    const script =
      PREAMBLE +
      blocks.map((block) => `echo "@@ block at README.md:${block.line}" >&2\n${runnable(block, addresses)}`).join('\n') +
      // What a block left running in the background (a webhook receiver, the service) stops with the walk.
      '\nkill $(jobs -p) 2>/dev/null || true\nsg_stop\n';
    // The scene's folder holds what the walk writes (certificates, passes), with the clone's sample files.
    symlinkSync(join(REPOSITORY, 'docs'), join(scene.folder, 'docs'));
    const pidFile = join(scene.folder, 'service.pid');
    const serviceLog = join(scene.folder, 'service.log');
    writeFileSync(pidFile, '');
    const env = serviceEnvironment({ ...scene.settings, SG_REPOSITORY: REPOSITORY, SG_PIDFILE: pidFile, SG_SERVICE_LOG: serviceLog });
    try {
      const { code, output, answers } = await walk(script, scene.folder, env);
      const wrong = answers.filter(({ status, expected }) => (expected === '2xx' ? !status.startsWith('2') : status !== expected));
      expect(wrong, output.slice(-6000)).to.deep.equal([]);
      expect(code, output.slice(-6000)).to.equal(0);
      expect(answers.length).to.be.greaterThan(20);
      // The receiver of step 11 prints each delivery's event: the hook's test ping and the message of step 13.
      expect(output, output.slice(-6000)).to.match(/^webhook\.test \{/m);
      expect(output, output.slice(-6000)).to.match(/^message\.received \{/m);
    } finally {
      stopService(pidFile);
    }
  });
});
