import { readFile } from 'node:fs/promises';
import type { ClientBase } from 'pg';
import type { Db } from './database.js';

/**
 * What every migration it names did to an empty database: the statements they sent, in order, written by `npm run
 * db:snapshot` (scripts/db/schema-snapshot.ts). A new database gets it in one go instead of the migrations one by
 * one, each built by knex and sent on its own (most of an empty data folder's start).
 */
export const SCHEMA_SNAPSHOT = new URL('./schema-snapshot.sql', import.meta.url);

/** Each migration it covers is named on a line of its own, before the statements it sent. */
export const COVERED_MIGRATION = /^-- migration: (\S+)$/gm;

/**
 * On a database with nothing in its schema yet, runs the snapshot and records its migrations as applied (batch 1),
 * all in one transaction, and says which they are (none when it did not run); knex then runs the migrations written
 * since, as on any database. A snapshot that does not cover the oldest of `migrationNames` as they are named now is
 * left unused. Two starts at once on one new database (an API and a worker process): the second waits for the
 * first, then finds the schema made.
 */
export async function applySchemaSnapshot(db: Db, migrationNames: string[]): Promise<string[]> {
  const snapshot = await readFile(SCHEMA_SNAPSHOT, 'utf8');
  const covered = [...snapshot.matchAll(COVERED_MIGRATION)].map((match) => match[1]!);
  if (covered.length === 0 || covered.some((name, i) => migrationNames[i] !== name)) return [];
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', ['socialgate:schema-snapshot']);
    const { rows } = await trx.raw<{ rows: Array<{ empty: boolean }> }>(
      'SELECT NOT EXISTS (SELECT FROM pg_class WHERE relnamespace = to_regnamespace(current_schema())) AS empty',
    );
    if (!rows[0]!.empty) return [];
    // On the transaction's own connection, as the migrations sent it: knex would take each `?` for a placeholder.
    const connection = (await trx.client.acquireConnection()) as ClientBase;
    await connection.query(snapshot);
    await trx.raw(
      `INSERT INTO knex_migrations (name, batch, migration_time)
       SELECT name, 1, now() FROM unnest(?::text[]) WITH ORDINALITY AS covered(name, position) ORDER BY position`,
      [covered],
    );
    return covered;
  });
}
