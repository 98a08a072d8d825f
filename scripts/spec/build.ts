/**
 * Builds everything generated from the contract into generated/: the bundled document (openapi.json), its
 * TypeScript types (api.d.ts) and the Redoc page (docs.html), which loads nothing from elsewhere. With --check
 * it builds into a temporary folder and fails when generated/ differs, so a stale commit cannot pass `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { DOCS_SERVER_PLACEHOLDER, servedServers } from '../../src/modules/usage/docs-page.js';
import { selfContained } from './docs-page.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const check = process.argv.includes('--check');
const redocly = join(root, 'node_modules', '.bin', 'redocly');
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
const FILES = ['openapi.json', 'api.d.ts', 'operations.ts', 'docs.html'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function run(args: string[]): void {
  execFileSync(redocly, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
}

async function build(outDir: string): Promise<void> {
  const bundled = join(outDir, 'openapi.json');
  run(['bundle', 'openapi/openapi.yaml', '--config', 'redocly.yaml', '--ext', 'json', '--output', bundled]);
  // Stable formatting, so the freshness check compares content, not whitespace.
  writeFileSync(bundled, `${JSON.stringify(JSON.parse(readFileSync(bundled, 'utf8')), null, 2)}\n`);

  const ast = await openapiTS(new URL(`file://${bundled}`), { alphabetize: false, exportType: false });
  const header = '// Generated from openapi/ by `npm run spec`. Do not edit.\n\n';
  writeFileSync(join(outDir, 'api.d.ts'), header + astToString(ast));

  writeFileSync(join(outDir, 'operations.ts'), operationsModule(JSON.parse(readFileSync(bundled, 'utf8'))));

  // The page names the instance that serves it: built with a placeholder server that each instance replaces.
  const served = join(outDir, 'docs-openapi.json');
  writeFileSync(served, JSON.stringify({ ...JSON.parse(readFileSync(bundled, 'utf8')), servers: servedServers(DOCS_SERVER_PLACEHOLDER) }));
  const docs = join(outDir, 'docs.html');
  run(['build-docs', served, '--config', 'redocly.yaml', '--inlineBundle', '--title', 'Socialgate API', '--output', docs]);
  rmSync(served);
  writeFileSync(docs, selfContained(readFileSync(docs, 'utf8')));
}

/**
 * The operations of `paths` (not the outgoing `webhooks`), as a typed list the service is checked against, each
 * with its area (the operation's one tag): an area's handlers are typed by `OperationIdOf<'Area'>`.
 */
function operationsModule(document: { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> }): string {
  const rows = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const { operationId, tags } = item[method]!;
      return `  { operationId: '${operationId}', method: '${method.toUpperCase()}', path: '${path}', area: '${tags[0]}' },`;
    }),
  );
  return [
    '// Generated from openapi/ by `npm run spec`. Do not edit.',
    '',
    'export const OPERATIONS = [',
    ...rows,
    '] as const;',
    '',
    "export type OperationId = (typeof OPERATIONS)[number]['operationId'];",
    '',
    "/** The areas of the contract: each operation's one tag. */",
    "export type AreaName = (typeof OPERATIONS)[number]['area'];",
    '',
    '/** The operations of one area. */',
    "export type OperationIdOf<A extends AreaName> = Extract<(typeof OPERATIONS)[number], { area: A }>['operationId'];",
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const generated = join(root, 'generated');
  if (!check) {
    await build(generated);
    console.log(`generated/${FILES.join(', generated/')} rebuilt from openapi/`);
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'socialgate-spec-'));
  try {
    await build(scratch);
    const stale = FILES.filter((file) => {
      const committed = join(generated, file);
      return !existsSync(committed) || readFileSync(committed, 'utf8') !== readFileSync(join(scratch, file), 'utf8');
    });
    if (stale.length > 0) {
      console.error(`stale: generated/${stale.join(', generated/')} — run \`npm run spec\` and commit the result`);
      process.exit(1);
    }
    console.log('generated/ is fresh');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString();
  console.error(stderr || error);
  process.exit(1);
});
