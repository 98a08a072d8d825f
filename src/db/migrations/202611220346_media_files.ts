import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('media', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').references('profiles.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['image', 'gif', 'video', 'audio', 'document']);
    t.text('mime_type').notNullable();
    t.bigInteger('size').notNullable();
    t.integer('width');
    t.integer('height');
    t.integer('duration_ms');
    t.text('codec');
    t.double('frame_rate');
    t.text('sha256').notNullable();
    t.text('filename');
    // Where the bytes are (a path under the media folder, or an object key) and the unguessable read token.
    t.text('storage_key').notNullable();
    t.text('token').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
    // Deleting a profile deletes its media: found by this index, not a scan.
    t.index(['profile_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('media');
}
