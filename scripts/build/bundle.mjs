/**
 * What `npm start` runs: src/main.ts and all it imports statically, ours and the packages', bundled by esbuild into
 * a few files (dist/<stamp>/bundle/). Node then reads, resolves and compiles a few large files instead of ~2,100
 * small ones, about half the CPU of a start. What the code imports on first use, `import('pkg')`, stays a package
 * loaded from node_modules as before (it is not part of a start); our own modules imported so are chunks of the
 * bundle. Every other entry (the MCP command, the migrations, the pattern thread) runs the file-by-file build.
 *
 * Each bundled file keeps the place it has unbundled: its `import.meta.url`, `__dirname` and `__filename` name our
 * file's compiled copy beside the bundle, or a package's file in node_modules, so that what it reads beside
 * itself is found as before. What a bundle cannot keep fails the build instead of a start: a `require` of a name
 * known only when it runs, or a `require.resolve`, in a package that is bundled.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/** Packages only some databases or setups have, required where they are chosen: left to node_modules, if there. */
const NOT_INSTALLED = ['pg-native', 'pg-query-stream', 'mysql', 'mysql2', 'mariadb', 'sqlite3', 'better-sqlite3', 'tedious', 'oracledb'];
/**
 * Files that `require` a path computed when they run, always an absolute one, which resolves the same from the
 * bundle: objection's model given by its file's path, knex's migration given by its file's (our migrations are not).
 */
const ABSOLUTE_REQUIRES = ['objection/lib/utils/resolveModel.js', 'knex/lib/migrations/util/import-file.js'];
/** Packages with a compiled addon (a `.node` file), which only Node's own loader can open. */
const NATIVE = ['@node-rs/argon2'];

const SCRIPT = /\.([cm]?js|ts)$/;
const PACKAGE = /^(@[^/]+\/)?[^./][^/]*/;

/** The banner of every output file: what the places below are computed with, from where the file lies. */
const BANNER = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundlePath } from 'node:url';",
  // A package's `require` of a Node module or of a package left out resolves from here, as from the sources.
  'const require = __bundleRequire(import.meta.url);',
  'const __bundleUrl = (path) => new URL(path, import.meta.url).href;',
].join('\n');

/**
 * `file`'s text, with its own place written in where it asks for it. `place` is its path (or its compiled copy's)
 * relative to the bundle's folder.
 */
function placed(text, place) {
  const url = `__bundleUrl(${JSON.stringify(place)})`;
  let out = text.replaceAll('import.meta.url', url);
  // A module that declares them (an ES module computing them from import.meta.url) keeps its own.
  if (!/\b(var|let|const)\s+__filename\b/.test(out)) out = out.replace(/(?<![\w$.])__filename(?![\w$])/g, `__bundlePath(${url})`);
  if (!/\b(var|let|const)\s+__dirname\b/.test(out)) {
    out = out.replace(/(?<![\w$.])__dirname(?![\w$])/g, `__bundlePath(__bundleUrl(${JSON.stringify(`${dirname(place)}/`)}))`);
  }
  return out;
}

/** Keeps every file's place (above); `bundleDir` is where the bundle will lie once built. */
function keepPlaces(root, bundleDir, buildDir) {
  return {
    name: 'keep-places',
    setup(build) {
      build.onLoad({ filter: SCRIPT }, async ({ path }) => {
        const text = await readFile(path, 'utf8');
        const ours = !path.includes('/node_modules/');
        if (!ours && /\brequire\.resolve\s*\(/.test(text)) {
          return {
            errors: [
              {
                text: `${relative(root, path)} uses require.resolve, which a bundle cannot keep: leave its package out (NATIVE or a lazy import)`,
              },
            ],
          };
        }
        // Our file's compiled copy (scripts/build/compile.mjs lays them beside the bundle), or the package's own file.
        const place = relative(bundleDir, ours ? join(buildDir, relative(root, path)).replace(/\.ts$/, '.js') : path);
        const loader = path.endsWith('.ts') ? 'ts' : 'js';
        if (!/import\.meta\.url|__dirname|__filename/.test(text)) return { contents: text, loader };
        return { contents: placed(text, place), loader };
      });
    },
  };
}

/** A package our code imports on first use stays out of the bundle, as it is out of a start. */
const lazyPackagesLeftOut = {
  name: 'lazy-packages-left-out',
  setup(build) {
    build.onResolve({ filter: PACKAGE }, ({ kind, path, importer }) => {
      if (kind === 'dynamic-import' && !importer.includes('/node_modules/')) return { path, external: true };
      return undefined;
    });
  },
};

/**
 * Bundles the start into `outdir` (`<buildDir>/bundle`), whose own files are compiled into `buildDir` (the folder
 * that becomes dist/<stamp>: the bundle's relative places are the same there).
 */
export async function bundleStart(root, buildDir, build) {
  const outdir = join(buildDir, 'bundle');
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...NOT_INSTALLED, ...NATIVE],
    banner: { js: BANNER },
    sourcemap: 'linked',
    logLevel: 'error',
    logOverride: { 'unsupported-require-call': 'warning' },
    metafile: true,
    plugins: [lazyPackagesLeftOut, keepPlaces(root, outdir, buildDir)],
  });
  refuseRelativeRequires(result.warnings);
  refuseTwoCopies(result.metafile);
  return join(outdir, 'main.mjs');
}

/** A `require(name)` of a name computed when it runs would look for a relative name beside the bundle. */
function refuseRelativeRequires(warnings) {
  const unsure = warnings.filter(
    (warning) =>
      warning.id === 'unsupported-require-call' &&
      !ABSOLUTE_REQUIRES.some((file) => warning.location?.file.endsWith(`node_modules/${file}`)),
  );
  if (unsure.length > 0) {
    const where = unsure.map((warning) => `${warning.location?.file}:${warning.location?.line}`).join(', ');
    throw new Error(`a bundled package requires a name computed when it runs (${where}): leave the package out (NATIVE or a lazy import)`);
  }
}

/** A package both bundled and imported lazily would run as two copies, each with its own state. */
function refuseTwoCopies(metafile) {
  const bundled = new Set(
    Object.keys(metafile.inputs).flatMap((input) => /node_modules\/((@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input)?.[1] ?? []),
  );
  const lazy = Object.values(metafile.outputs).flatMap((output) =>
    (output.imports ?? []).filter((i) => i.external && i.kind === 'dynamic-import').map((i) => PACKAGE.exec(i.path)?.[0]),
  );
  const both = [...new Set(lazy)].filter((name) => name && bundled.has(name));
  if (both.length > 0) throw new Error(`bundled and also imported on first use (two copies would run): ${both.join(', ')}`);
}
