import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('problems — declared in one place per area', () => {
  it("every problem class lives in src/lib/errors.ts or in its area's errors.ts (ApiError itself is abstract)", () => {
    const elsewhere = sourceFiles(join(root, 'src'))
      .filter((file) => !file.endsWith('/errors.ts'))
      .filter((file) => /\bextends (ApiError|UnprocessableError)\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(elsewhere).to.deep.equal([]);
  });
});
