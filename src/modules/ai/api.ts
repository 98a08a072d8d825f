import type { Knex } from 'knex';

// What other areas read of the AI area's table.

/** How many tasks the owner asked for since `since`, whatever became of them. */
export async function tasksAskedSince(db: Knex, ownerId: string, since: Date): Promise<number> {
  const [row] = (await db('aiTasks').where({ ownerId }).where('createdAt', '>=', since).count({ n: '*' })) as Array<{ n: string | number }>;
  return Number(row!.n);
}
