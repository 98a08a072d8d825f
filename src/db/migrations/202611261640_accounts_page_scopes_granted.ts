import type { Knex } from 'knex';

/**
 * Page accounts stored the person's tasks on the page (`ANALYZE`, `MODERATE`…) as their scopes, where every
 * other account stores what its grant granted; so permissions granted looked missing. The grant itself was not
 * kept, so an existing page's scopes become what its tasks let the app use among the permissions the login asks
 * for (the next connection stores the grant's own). The tasks are not kept: nothing decides by them.
 */
const GRANTED_BY_TASK: Record<string, string[]> = {
  ANALYZE: ['read_insights', 'pages_read_engagement'],
  CREATE_CONTENT: ['pages_manage_posts', 'pages_read_engagement'],
  MODERATE: ['pages_manage_engagement', 'pages_read_user_engagement', 'pages_read_engagement'],
  MESSAGING: ['pages_messaging'],
  ADVERTISE: ['pages_manage_ads'],
  MANAGE: ['pages_manage_metadata'],
};

export async function up(db: Knex): Promise<void> {
  const tasks = Object.keys(GRANTED_BY_TASK);
  const pages = (await db('accounts')
    .where({ platform: 'social_network', kind: 'page' })
    .whereRaw('scopes && ?::text[]', [tasks])
    .select('id', 'scopes')) as Array<{ id: string; scopes: string[] }>;
  for (const page of pages) {
    const granted = new Set(['pages_show_list', ...page.scopes.flatMap((scope) => GRANTED_BY_TASK[scope] ?? [scope])]);
    await db('accounts')
      .where({ id: page.id })
      .update({ scopes: [...granted].sort() });
  }
}

/** The tasks are not kept (see above): going back leaves the scopes as they are. */
export async function down(): Promise<void> {}
