/**
 * Generates the clients partners generate, each by its generator's own command on the service's served
 * /openapi.json (fetched over HTTP, so its `servers` is the instance's PUBLIC_URL), into one folder beside the
 * programs of samples/, and typechecks those programs against them under --strict. test/clients/generated.test.ts
 * then runs each program against the same service.
 */
import { execFile } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** Each generator: the program written against its client (samples/<name>.ts), and the command that makes it. */
export const GENERATORS = {
  // Its documented transform of `format: binary` to Blob is taken by its Node API only: openapi-typescript.ts runs it.
  'openapi-fetch': (url: string, dir: string) => [bin('tsx'), [join(root, 'scripts', 'clients', 'openapi-typescript.ts'), url, dir]],
  'hey-api': (url: string, dir: string) => [bin('openapi-ts'), ['-i', url, '-o', join(dir, 'hey-api'), '--silent', '--no-log-file']],
  orval: (url: string, dir: string) => [bin('orval'), ['--config', orvalConfig(url, dir)]],
  'swagger-typescript-api': (url: string, dir: string) => [
    bin('swagger-typescript-api'),
    ['generate', '-p', url, '-o', join(dir, 'swagger-typescript-api'), '-n', 'Api.ts', '--silent'],
  ],
} satisfies Record<string, (url: string, dir: string) => [string, string[]]>;

export type Generator = keyof typeof GENERATORS;

/**
 * orval takes the fetch client's address from the document's server only through a config file. 7.13 is the last
 * release that runs on Node 20 (later ones need 22.18), and it loads a CommonJS config: an ES module one reaches it
 * without its `input`.
 */
function orvalConfig(url: string, dir: string): string {
  const path = join(dir, 'orval.config.cjs');
  const output = { target: join(dir, 'orval', 'api.ts'), client: 'fetch', baseUrl: { getBaseUrlFromSpecification: true } };
  writeFileSync(path, `module.exports = ${JSON.stringify({ socialgate: { input: { target: url }, output } })};\n`);
  return path;
}

/** Generates every client (at once: each mostly waits on its own process) and answers how long each took, in ms. */
export async function generateClients(documentUrl: string, dir: string): Promise<Record<Generator, number>> {
  const timings = await Promise.all(
    Object.entries(GENERATORS).map(async ([name, command]) => {
      const started = performance.now();
      const [file, args] = command(documentUrl, dir);
      await run(file, args, { cwd: dir }).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`${name} failed to generate a client:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      });
      return [name, Math.round(performance.now() - started)] as const;
    }),
  );
  return Object.fromEntries(timings) as Record<Generator, number>;
}

/** The programs beside the clients, compiled under --strict with their own tsconfig.json: a type error fails. */
export async function typecheckPrograms(dir: string): Promise<void> {
  cpSync(join(root, 'scripts', 'clients', 'samples'), dir, { recursive: true });
  await run(bin('tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch((error: { stdout?: string }) => {
    throw new Error(`the programs do not compile against the generated clients:\n${(error.stdout ?? '').replaceAll(dir, '<generated>')}`);
  });
}
