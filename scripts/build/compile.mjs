/**
 * The service as Node runs it: every TypeScript file of src/ and generated/ transpiled by esbuild (the transform
 * tsx applied at every start, done once) into dist/<stamp>/, file by file in the same layout, beside copies of
 * the other files the code reads by relative path (the bundled contract, the docs page, the favicon, the pattern
 * worker), and the start bundled beside them (scripts/build/bundle.mjs). `npm ci` builds it (`prepare`); `npm
 * start` builds it again first when a source changed.
 *
 * <stamp> names the sources it was built from (each file's path, size and modification time): a changed, added
 * or removed source makes a new stamp, and two starts at once never run a folder half built (each builds in a
 * folder of its own and renames it into place). No type check here: `npm run typecheck` is that.
 *
 *   node scripts/build/compile.mjs     builds if needed, prints the folder
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStart } from './bundle.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = join(ROOT, 'dist');
/** What is built: these folders' TypeScript, and their other files copied as they are. */
const SOURCES = ['src', 'generated'];
/** This file and the build's settings also make the stamp: a change in how it builds builds again. */
const BUILD_INPUTS = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./bundle.mjs', import.meta.url)), join(ROOT, 'package.json')];

function filesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every source file (repository-relative) with its size and modification time, in a stable order. */
function sources() {
  return SOURCES.flatMap((folder) => filesUnder(join(ROOT, folder)))
    .concat(BUILD_INPUTS)
    .map((file) => {
      const { size, mtimeMs } = statSync(file);
      return { file: relative(ROOT, file), size, mtimeMs };
    })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}

function stampOf(files) {
  const hash = createHash('sha256');
  for (const { file, size, mtimeMs } of files) hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  return hash.digest('hex').slice(0, 16);
}

const isTypeScript = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts');

async function buildInto(folder, files) {
  // Loaded only to build: a start that finds its build pays nothing for it.
  const { build } = await import('esbuild');
  const inputs = files.map(({ file }) => file).filter((file) => SOURCES.some((source) => file.startsWith(`${source}/`)));
  await build({
    absWorkingDir: ROOT,
    entryPoints: inputs.filter(isTypeScript),
    outdir: folder,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Beside each file, for NODE_OPTIONS=--enable-source-maps to name the TypeScript lines in stack traces (not on
    // by default: reading every module's map costs a start a few hundred milliseconds).
    sourcemap: 'linked',
    logLevel: 'error',
  });
  for (const file of inputs.filter((file) => !file.endsWith('.ts'))) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(folder, file));
  }
  await bundleStart(ROOT, folder, build);
}

/** The folder of the build of the sources as they are now, built first if there is none yet. */
export async function compiled() {
  const files = sources();
  const stamp = stampOf(files);
  const target = join(DIST, stamp);
  if (existsSync(target)) return target;
  const building = join(DIST, `.building-${process.pid}-${stamp}`);
  rmSync(building, { recursive: true, force: true });
  await buildInto(building, files);
  try {
    renameSync(building, target);
  } catch (error) {
    // Another start built the same sources meanwhile: theirs is as good.
    if (!existsSync(target)) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  // Builds of sources that are gone; a folder another start is building still has its process.
  for (const entry of readdirSync(DIST)) {
    const builder = /^\.building-(\d+)-/.exec(entry)?.[1];
    if (entry !== stamp && !(builder && isAlive(Number(builder)))) rmSync(join(DIST, entry), { recursive: true, force: true });
  }
  return target;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await compiled());
