import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Every installed package (nested ones too) with the Node versions it says it runs on. */
function installedEngines(folder = join(ROOT, 'node_modules')): Array<{ name: string; node: string }> {
  const found: Array<{ name: string; node: string }> = [];
  for (const entry of readdirSync(folder)) {
    if (entry.startsWith('.')) continue;
    const path = join(folder, entry);
    if (entry.startsWith('@')) {
      found.push(...installedEngines(path));
      continue;
    }
    const manifest = join(path, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version, engines } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string;
      version: string;
      engines?: { node?: unknown };
    };
    if (typeof engines?.node === 'string') found.push({ name: `${name}@${version}`, node: engines.node });
    if (existsSync(join(path, 'node_modules'))) found.push(...installedEngines(join(path, 'node_modules')));
  }
  return found;
}

describe('package.json engines', () => {
  it('promises only Node versions every installed dependency runs on, the running one included', () => {
    const ours = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(semver.satisfies(process.versions.node, ours), `Node ${process.versions.node} against ${ours}`).to.equal(true);
    const narrower = installedEngines().filter((dependency) => !semver.subset(ours, dependency.node));
    expect(narrower.map((dependency) => `${dependency.name} needs ${dependency.node}`)).to.deep.equal([]);
  });
});
