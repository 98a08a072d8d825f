/**
 * `npm ci` (`prepare`, after the build): the template of a new data folder's PostgreSQL for this installation
 * (src/db/make-postgres-template.ts), so that the first `npm start` on an empty data folder copies it instead of
 * running initdb and the migrations. Its failure fails no install: that start then makes the cluster itself.
 *   node scripts/db/postgres-template.mjs
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiled } from '../build/compile.mjs';

try {
  const { makePostgresTemplate } = await import(pathToFileURL(join(await compiled(), 'src/db/make-postgres-template.js')).href);
  console.log(`the embedded PostgreSQL's template of a new data folder: ${await makePostgresTemplate()}`);
} catch (error) {
  console.warn(
    `the embedded PostgreSQL's template of a new data folder could not be made, a first start makes its cluster itself: ${error.stack ?? error}`,
  );
}
