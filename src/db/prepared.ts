import type { Knex } from 'knex';

/**
 * A statement on every request's path, as a named (prepared) statement on a connection of the pool, or on the
 * transaction's when given one: PostgreSQL parses and plans it once per connection, and no query builder compiles
 * it again per call. `name` must stand for that one `text` in the whole process. Rows come as the statement names
 * its columns (alias them in camelCase).
 */
export async function preparedRows<Row>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as { query(config: object): Promise<{ rows: Row[] }> };
  try {
    return (await connection.query({ name: `socialgate:${name}`, text, values })).rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * A statement written with knex's `?` placeholders (as the helpers that make WITH members write theirs) with
 * PostgreSQL's numbered ones instead, in order, for `preparedRows`. Its text must hold no other `?`.
 */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${(n += 1)}`);
}
