import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { recordSchemaSnapshot } from '../../scripts/db/schema-snapshot.js';
import { connect, type Db, migrate } from '../../src/db/database.js';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { loadMigrations, migrationSource } from '../../src/db/migration-source.js';
import { COVERED_MIGRATION, SCHEMA_SNAPSHOT } from '../../src/db/schema-snapshot.js';
import { adminUrl, withDatabase } from '../fixtures.js';

/** What a database is made of, its objects' names and definitions (no OIDs), in a stable order. */
const SCHEMA = `
  SELECT json_build_object(
    'relations', (
      SELECT json_agg(json_build_object(
        'name', c.relname, 'kind', c.relkind, 'persistence', c.relpersistence, 'options', c.reloptions, 'acl', c.relacl::text,
        'comment', obj_description(c.oid, 'pg_class'),
        'columns', (
          SELECT json_agg(json_build_object(
            'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'notNull', a.attnotnull,
            'default', pg_get_expr(d.adbin, d.adrelid), 'identity', a.attidentity, 'generated', a.attgenerated,
            'collation', a.attcollation, 'comment', col_description(c.oid, a.attnum)) ORDER BY a.attnum)
          FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
        'constraints', (SELECT json_agg(conname || ': ' || pg_get_constraintdef(oid) ORDER BY conname) FROM pg_constraint WHERE conrelid = c.oid),
        'triggers', (SELECT json_agg(pg_get_triggerdef(oid) ORDER BY tgname) FROM pg_trigger WHERE tgrelid = c.oid AND NOT tgisinternal),
        'index', CASE WHEN c.relkind IN ('i', 'I') THEN pg_get_indexdef(c.oid) END,
        'view', CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) END,
        'sequence', (SELECT json_build_object('type', seqtypid::regtype, 'start', seqstart, 'increment', seqincrement, 'min', seqmin,
                       'max', seqmax, 'cache', seqcache, 'cycle', seqcycle, 'last', pg_sequence_last_value(c.oid))
                     FROM pg_sequence WHERE seqrelid = c.oid)
      ) ORDER BY c.relname)
      FROM pg_class c WHERE c.relnamespace = to_regnamespace(current_schema())),
    'functions', (SELECT json_agg(pg_get_functiondef(oid) ORDER BY proname, oid::regprocedure::text)
                  FROM pg_proc WHERE pronamespace = to_regnamespace(current_schema()) AND prokind IN ('f', 'p')),
    'types', (SELECT json_agg(json_build_object('name', t.typname, 'type', t.typtype,
                'labels', (SELECT json_agg(enumlabel ORDER BY enumsortorder) FROM pg_enum WHERE enumtypid = t.oid)) ORDER BY t.typname)
              FROM pg_type t WHERE t.typnamespace = to_regnamespace(current_schema())),
    'extensions', (SELECT json_agg(extname ORDER BY extname) FROM pg_extension)
  ) AS schema`;

interface Relation {
  name: string;
  kind: string;
  columns: Array<{ name: string; type: string }> | null;
}

/** The schema, and every table's rows (but their times, which say when they were written). */
async function contentOf(db: Db): Promise<{ schema: { relations: Relation[] }; rows: Record<string, unknown[]> }> {
  const { rows } = await db.raw<{ rows: Array<{ schema: { relations: Relation[] } }> }>(SCHEMA);
  const schema = rows[0]!.schema;
  const content: Record<string, unknown[]> = {};
  for (const table of schema.relations.filter((relation) => relation.kind === 'r')) {
    const columns = table.columns!.filter((column) => !/^(timestamp|date|time)/.test(column.type)).map((column) => column.name);
    content[table.name] = await db(table.name)
      .select(columns)
      .orderByRaw(columns.map(() => '?? NULLS FIRST').join(', '), columns);
  }
  return { schema, rows: content };
}

describe('the schema snapshot — a new database made in one transaction', function () {
  // Each test runs every migration on a database of its own: about 4 s on a quiet machine, several times that on a
  // loaded one (it once took more than the suite's 20 s while CI ran beside other work).
  this.timeout(60_000);
  const opened: Db[] = [];

  /** A new, empty database of its own. */
  async function freshDatabase(): Promise<{ name: string; db: Db }> {
    const name = `s_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), name);
    const db = connect(withDatabase(adminUrl(), name), 2);
    opened.push(db);
    return { name, db };
  }

  after(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
  });

  it('holds what every migration sends to an empty database now (after adding or changing one: npm run db:snapshot)', async () => {
    const snapshot = await readFile(SCHEMA_SNAPSHOT, 'utf8');
    const covered = [...snapshot.matchAll(COVERED_MIGRATION)].map((match) => match[1]);
    expect(covered, 'the migrations it covers').to.deep.equal((await loadMigrations()).map((m) => m.name));
    const recorded = await recordSchemaSnapshot(adminUrl());
    expect(snapshot === recorded, 'the migrations send other statements than the snapshot holds').to.equal(true);
  });

  it('makes a database equal to one every migration made: tables, columns, constraints, indexes, triggers, functions, rows and the migrations recorded', async () => {
    const migrated = (await freshDatabase()).db;
    await migrated.migrate.latest({ migrationSource: migrationSource(await loadMigrations()) });
    const snapshotted = (await freshDatabase()).db;
    const sent: string[] = [];
    snapshotted.on('query', ({ sql }: { sql: string }) => sent.push(sql));
    await migrate(snapshotted);

    expect(
      sent.filter((sql) => /^create table "owners"/.test(sql)),
      'knex made no table itself',
    ).to.deep.equal([]);
    const [expected, actual] = await Promise.all([contentOf(migrated), contentOf(snapshotted)]);
    expect(actual.schema.relations.length).to.be.above(100);
    expect(actual).to.deep.equal(expected);
    const recorded = (db: Db) => db('knex_migrations').select('name', 'batch').orderBy('id');
    expect(await recorded(snapshotted)).to.deep.equal(await recorded(migrated));
  });

  it('two starts at once on one new database make it once: both migrate, and each migration is recorded once', async () => {
    const { name, db } = await freshDatabase();
    const other = connect(withDatabase(adminUrl(), name), 2);
    opened.push(other);
    await Promise.all([migrate(db), migrate(other)]);
    const names = (await loadMigrations()).map((m) => m.name);
    expect(await db('knex_migrations').orderBy('id').pluck('name')).to.deep.equal(names);
  });

  it('a database that already has tables of its own is migrated one migration after the other, as before', async () => {
    const { db } = await freshDatabase();
    await db.schema.createTable('kept', (table) => table.text('note'));
    await db('kept').insert({ note: 'mine' });
    const sent: string[] = [];
    db.on('query', ({ sql }: { sql: string }) => sent.push(sql));
    await migrate(db);

    expect(sent.filter((sql) => /^create table "owners"/.test(sql))).to.have.length(1);
    expect(await db('knex_migrations').orderBy('id').pluck('name')).to.deep.equal((await loadMigrations()).map((m) => m.name));
    expect(await db('kept').pluck('note')).to.deep.equal(['mine']);
  });
});
