/**
 * Lints the contract with the openapi-core that openapi-typescript (and many other tools) run inside: the 1.x
 * line, whose example checks close every object schema by default, where Redocly CLI 2 (`redocly lint`) does
 * not. A schema both read alike is one every generator reads without help; `npm run lint:spec` runs both.
 */
import { createRequire } from 'node:module';
import type * as OpenapiCore from '@redocly/openapi-core';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The copy openapi-typescript resolves, whichever version it brings.
const fromGenerator = createRequire(createRequire(import.meta.url).resolve('openapi-typescript'));
const core = fromGenerator('@redocly/openapi-core') as typeof OpenapiCore;
const { version } = fromGenerator('@redocly/openapi-core/package.json') as { version: string };

const config = await core.loadConfig({ configPath: `${root}redocly.yaml` });
const problems = await core.lint({ ref: `${root}openapi/openapi.yaml`, config });
for (const problem of problems) {
  const where = problem.location[0];
  console.error(
    `${problem.severity} ${problem.ruleId} ${where?.source.absoluteRef.replace(root, '')}${where?.pointer ?? ''}: ${problem.message}`,
  );
}
const errors = problems.filter((problem) => problem.severity === 'error').length;
console.log(`openapi-core ${version} (inside openapi-typescript): ${errors} errors, ${problems.length - errors} warnings`);
if (errors > 0) process.exitCode = 1;
