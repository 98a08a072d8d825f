import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeApi } from '../support/harness.js';
import { blocksOf, runnable } from './blocks.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const BROWSER = fileURLToPath(new URL('./browser.ts', import.meta.url));

/**
 * What the walk's shell knows besides the README: `curl` reports each answer's status on stderr (the test fails
 * on any outside 2xx that the README does not expect with `# expect NNN`), and `open` is a person's browser.
 */
const PREAMBLE = `set -eo pipefail
curl() { command curl -w "%{stderr}@@ %{http_code} \${SG_EXPECT:-2xx} %{method} %{url_effective}\\n" "$@"; }
open() { tsx ${BROWSER} "$1"; }
`;

interface Answer {
  status: string;
  expected: string;
  request: string;
}

/** Runs the script in bash in a folder of its own: its output, and the curl answers it reported. */
function walk(script: string, cwd: string): Promise<{ code: number | null; output: string; answers: Answer[] }> {
  return new Promise((resolve) => {
    const shell = spawn('bash', ['-c', script], {
      cwd,
      timeout: 300_000,
      env: { ...process.env, PATH: `${join(REPOSITORY, 'node_modules/.bin')}:${process.env.PATH}` },
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

describeApi('the README, word for word', { owner: false }, (t) => {
  it('runs every ```sh block in order against a live service, each answer 2xx or the status it says to expect', async function () {
    this.timeout(600_000);
    const addresses = { 'http://localhost:8080': t.app.url, 'http://127.0.0.1:8081': t.app.services.sandboxUrl! };
    const blocks = blocksOf(join(REPOSITORY, 'README.md')).filter((block) => block.lang === 'sh');
    const script =
      PREAMBLE +
      blocks.map((block) => `echo "@@ block at README.md:${block.line}" >&2\n${runnable(block, addresses)}`).join('\n') +
      // What a block left running in the background (a webhook receiver) stops with the walk.
      '\nkill $(jobs -p) 2>/dev/null || true\n';
    // A folder of its own for what the walk writes (certificates, passes), with the clone's sample files.
    const folder = mkdtempSync(join(tmpdir(), 'readme-walk-'));
    symlinkSync(join(REPOSITORY, 'docs'), join(folder, 'docs'));
    try {
      const { code, output, answers } = await walk(script, folder);
      const wrong = answers.filter(({ status, expected }) => (expected === '2xx' ? !status.startsWith('2') : status !== expected));
      expect(wrong, output.slice(-6000)).to.deep.equal([]);
      expect(code, output.slice(-6000)).to.equal(0);
      expect(answers.length).to.be.greaterThan(20);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
