/**
 * Generates clients from the bundled contract (generated/openapi.json) with @hey-api/openapi-ts and with
 * openapi-typescript (for openapi-fetch), and typechecks the programs in samples/ against them under --strict:
 * a contract change that breaks what a partner's generated client compiles fails `npm test`. The clients are
 * written to a temporary folder under .tmp/ (inside the repository, so the programs resolve its node_modules)
 * and removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Absolute: hey-api reads a relative `generated/openapi.json` as `organization/project` in its online registry.
const bundled = join(root, 'generated', 'openapi.json');

async function generateHeyApi(outDir: string): Promise<void> {
  await createClient({
    input: bundled,
    output: join(outDir, 'hey-api'),
    plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
    logs: { level: 'silent', file: false },
  });
}

/** openapi-typescript types every string as `string`; its documented transform makes `format: binary` a Blob. */
async function generateOpenapiTypescript(outDir: string): Promise<void> {
  const blob = ts.factory.createTypeReferenceNode('Blob');
  const ast = await openapiTS(new URL(`file://${bundled}`), {
    // Boolean schemas (`true`) reach the transform too.
    transform: (schema) => (typeof schema === 'object' && schema.format === 'binary' ? blob : undefined),
  });
  mkdirSync(join(outDir, 'openapi-typescript'));
  writeFileSync(join(outDir, 'openapi-typescript', 'api.ts'), astToString(ast));
}

async function main(): Promise<void> {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(root, '.tmp', 'clients-'));
  try {
    await Promise.all([generateHeyApi(scratch), generateOpenapiTypescript(scratch)]);
    cpSync(join(root, 'scripts', 'clients', 'samples'), scratch, { recursive: true });
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(scratch, 'tsconfig.json')], {
      cwd: scratch,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    console.log('generated clients (@hey-api/openapi-ts, openapi-typescript + openapi-fetch) compile the samples');
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString();
    console.error(
      output ? `the samples do not compile against the generated clients:\n${output.replaceAll(scratch, '<generated>')}` : error,
    );
    process.exitCode = 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
