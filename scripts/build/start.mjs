/**
 * `npm start`: the service's compiled JavaScript (scripts/build/compile.mjs, built again first if a source changed
 * since), its start bundled (scripts/build/bundle.mjs), run in this process: no TypeScript loader and no second
 * Node process at every start.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiled } from './compile.mjs';

await import(pathToFileURL(join(await compiled(), 'bundle/main.mjs')).href);
