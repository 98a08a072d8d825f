import type { Knex } from 'knex';

/** Dark posts (src/modules/ads/darkposts/): unpublished page posts made as creatives, listed by `GET /ads/darkposts`. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_dark_posts', (t) => {
    t.text('ad_account_id').notNullable().references('ad_accounts.id').onDelete('CASCADE');
    t.text('creative_id').notNullable();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    // The ad account's profile, for lists a profile-restricted key reads.
    t.text('profile_id').notNullable();
    t.text('account_id').notNullable();
    t.text('name').notNullable();
    t.text('platform_post_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['ad_account_id', 'creative_id']);
    t.index(['owner_id', 'created_at', 'creative_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_dark_posts');
}
