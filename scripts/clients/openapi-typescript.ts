/**
 * openapi-typescript on a served contract, with its documented transform of `format: binary` to Blob (which its
 * command line cannot take): `tsx openapi-typescript.ts <document URL> <folder>` writes <folder>/openapi-typescript/api.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const [documentUrl, dir] = process.argv.slice(2);
if (!documentUrl || !dir) throw new Error('usage: openapi-typescript.ts <document URL> <folder>');
const blob = ts.factory.createTypeReferenceNode('Blob');
const ast = await openapiTS(new URL(documentUrl), {
  // By default a member with a default is required, in request bodies too (`dropPendingUpdates` of a bot's
  // connection): a partner turns that off to send only what it means.
  defaultNonNullable: false,
  // Boolean schemas (`true`) reach the transform too.
  transform: (schema) => (typeof schema === 'object' && schema.format === 'binary' ? blob : undefined),
});
mkdirSync(join(dir, 'openapi-typescript'), { recursive: true });
writeFileSync(join(dir, 'openapi-typescript', 'api.ts'), astToString(ast));
