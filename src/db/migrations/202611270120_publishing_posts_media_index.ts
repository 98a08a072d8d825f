import type { Knex } from 'knex';

/**
 * Deleting a media file asks which posts not published yet use it (`media_ids @> ARRAY[id]`): answered by this
 * index, not by a scan of the owner's posts. Only unpublished posts are indexed, the few a delete can be refused for.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw("CREATE INDEX posts_unpublished_media ON posts USING gin (media_ids) WHERE status IN ('scheduled', 'processing', 'draft')");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS posts_unpublished_media');
}
