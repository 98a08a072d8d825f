import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { AnyArea } from '../../src/modules/area.js';
import { areas } from '../../src/modules/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Tables that are no area's: the events outbox (every area writes it through `emitEvent`, src/modules/events; the
 * hooks area fans it out), the platform-write ledger (src/modules/platform-writes), the request pipeline's
 * idempotency records (src/http) and the scheduler's jobs (src/jobs).
 */
const SHARED = ['events', 'platform_writes', 'idempotency_keys', 'agenda_jobs'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file's area (the folder under src/modules), if it is in one. */
function areaOf(file: string): string | undefined {
  return /^src\/modules\/([^/]+)\//.exec(file)?.[1];
}

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Calls whose first argument is a table: knex itself (`db('posts')`, `trx(…)`) and the builder's table methods. */
const TABLE_CALLS = /(^|\.)(db|trx|knex|from|into|table|join|leftJoin|rightJoin|innerJoin|fullOuterJoin|crossJoin|joinRaw)$/;
/** SQL that names a table. */
const sqlNaming = (table: string) => new RegExp(`\\b(from|join|update|into|table)\\s+${table}\\b`, 'i');

/** A table named in code: the table, where, and how. */
interface TableUse {
  table: string;
  at: string;
  how: string;
}

/**
 * The tables a file names: as the table of a query builder call (camelCase, as the code speaks, or snake_case),
 * in SQL (snake_case), as an Objection model's `tableName`, or by a value import of another area's model class
 * (`models` maps each model class to the area and the table it belongs to). Comments are not code.
 */
function tablesNamed(
  file: string,
  text: string,
  tables: readonly string[],
  models: ReadonlyMap<string, { area: string; table: string }>,
): TableUse[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const uses: TableUse[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const tableOf = (name: string) => tables.find((table) => name === table || name === camelCase(table));
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && TABLE_CALLS.test(node.expression.getText(source))) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) {
        const table = tableOf(first.text.split(/\s+as\s+/i)[0]!.trim());
        if (table) uses.push({ table, at: at(node), how: `${node.expression.getText(source).replace(/\s+/g, '')}('${first.text}')` });
      }
    }
    if (ts.isPropertyDeclaration(node) && node.name.getText(source) === 'tableName' && node.initializer) {
      const initializer = node.initializer;
      const table = ts.isStringLiteralLike(initializer) ? tableOf(initializer.text) : undefined;
      if (table) uses.push({ table, at: at(node), how: 'an Objection model' });
    }
    const literals = ts.isStringLiteralLike(node)
      ? [node.text]
      : ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
        : [];
    for (const literal of literals) {
      for (const table of tables.filter((name) => sqlNaming(name).test(literal)))
        uses.push({ table, at: at(node), how: `SQL: ${literal.replace(/\s+/g, ' ').trim().slice(0, 60)}` });
    }
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = join(file, '..', node.moduleSpecifier.text);
      const bindings = node.importClause?.namedBindings;
      for (const specifier of bindings && ts.isNamedImports(bindings) ? bindings.elements : []) {
        const model = models.get(specifier.propertyName?.text ?? specifier.name.text);
        if (model && !specifier.isTypeOnly && areaOf(from) === model.area)
          uses.push({ table: model.table, at: at(node), how: `imports the model ${specifier.name.text}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

/** The Objection model classes of the areas, by class name: the area they are in and their table. */
function modelsOf(files: Array<{ file: string; text: string }>): Map<string, { area: string; table: string }> {
  const models = new Map<string, { area: string; table: string }>();
  for (const { file, text } of files) {
    const area = areaOf(file);
    if (!area) continue;
    for (const match of text.matchAll(/class (\w+) extends BaseModel \{\s*static override tableName = '(\w+)'/g)) {
      models.set(match[1]!, { area, table: match[2]!.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) });
    }
  }
  return models;
}

/** The production code: src without the migrations (which create every area's tables) and the sandbox (no database). */
function productionCode(): Array<{ file: string; text: string }> {
  return sourceFiles(join(root, 'src'))
    .map((path) => relative(root, path))
    .filter((file) => !file.startsWith('src/db/migrations/') && !file.startsWith('src/sandbox/'))
    .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}

/** The tables the migrations leave: those their `up`s create, in order, less those a later `up` drops. */
function migratedTables(): string[] {
  const tables = new Set<string>();
  for (const file of sourceFiles(join(root, 'src/db/migrations')).sort()) {
    const up = readFileSync(file, 'utf8').split(/export async function down/)[0]!;
    for (const [, verb, table] of up.matchAll(/(createTable|dropTable)\('(\w+)'/g)) {
      if (verb === 'createTable') tables.add(table!);
      else tables.delete(table!);
    }
  }
  return [...tables];
}

const owners = new Map((areas as readonly AnyArea[]).flatMap((area) => area.tables.map((table) => [table, area.name] as const)));

describe('areas — each owns its tables', () => {
  it('every table the migrations create is owned by exactly one area, or is one of the shared tables', () => {
    const declared = (areas as readonly AnyArea[]).flatMap((area) => area.tables);
    expect(
      declared.filter((table, index) => declared.indexOf(table) !== index),
      'tables two areas declare',
    ).to.deep.equal([]);
    expect([...declared, ...SHARED].sort()).to.deep.equal(migratedTables().concat('agenda_jobs').sort());
  });

  it("no code outside an area names the area's tables: other areas use its exported functions", () => {
    const code = productionCode();
    const models = modelsOf(code);
    const foreign = code.flatMap(({ file, text }) =>
      tablesNamed(file, text, [...owners.keys()], models)
        .filter(({ table }) => owners.get(table) !== areaOf(file))
        .map(({ table, at, how }) => `${at} names ${owners.get(table)}'s table ${table} (${how})`),
    );
    expect(foreign).to.deep.equal([]);
  });

  it('recognises a table named in a query builder, in SQL, by a model and by a value import of a model', () => {
    const models = new Map([['AccountRow', { area: 'accounts', table: 'accounts' }]]);
    const uses = (text: string) =>
      tablesNamed('src/modules/usage/x.ts', text, ['accounts', 'ad_accounts', 'post_targets'], models).map(({ table }) => table);
    expect(uses("const n = await services.db('adAccounts').count();")).to.deep.equal(['ad_accounts']);
    expect(uses("await trx('posts as p').join('postTargets as t', 't.postId', 'p.id');")).to.deep.equal(['post_targets']);
    expect(uses('const sql = `SELECT count(*) FROM post_targets t WHERE t.account_id = ${id}`;')).to.deep.equal(['post_targets']);
    expect(uses("class Row extends BaseModel { static override tableName = 'accounts'; }")).to.deep.equal(['accounts']);
    expect(uses("import { AccountRow } from '../accounts/models.js';")).to.deep.equal(['accounts']);
    expect(uses("import type { AccountRow } from '../accounts/models.js';")).to.deep.equal([]);
    expect(uses("// the accounts from accounts\nusage.set('accounts', 1); metric('postTargets');")).to.deep.equal([]);
  });
});
