import type { Knex } from 'knex';

/** Generative-AI tasks, drained by the AI worker under a lease (src/modules/ai/worker.ts). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ai_tasks', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').references('profiles.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['copy', 'image', 'video', 'audio']);
    t.text('status').notNullable().checkIn(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
    t.text('provider').notNullable();
    t.text('model').notNullable();
    // The request as accepted, and what the worker asks the provider for (sizes, crop, voice), settled then.
    t.jsonb('input').notNullable();
    t.jsonb('plan').notNullable();
    // The provider's job (video), written and committed before it is polled: a crash resumes it, never starts another.
    t.text('provider_job_id');
    t.integer('progress');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('deadline_at', { useTz: true }).notNullable();
    t.jsonb('result');
    t.jsonb('usage');
    t.jsonb('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('completed_at', { useTz: true });
  });
  // The owner's list, newest first (ids are time-ordered), with its filters.
  await db.raw('CREATE INDEX ai_tasks_owner_list ON ai_tasks (owner_id, id DESC)');
  // What the worker claims: unfinished tasks by when they are next due.
  await db.raw("CREATE INDEX ai_tasks_due ON ai_tasks (next_attempt_at) WHERE status IN ('queued', 'running')");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ai_tasks');
}
