-- The statements every migration named below sent to a new, empty database, in order: a new database gets
-- them in one transaction instead (src/db/schema-snapshot.ts). Written by `npm run db:snapshot`: do not edit.

-- knex's own tables
create table "knex_migrations" ("id" serial primary key, "name" varchar(255), "batch" integer, "migration_time" timestamptz);
create table "knex_migrations_lock" ("index" serial primary key, "is_locked" integer);
insert into "knex_migrations_lock" ("is_locked") values ('0');

-- migration: 202611220224_core_foundation
create table "owners" ("id" text, "email" text not null, "password_hash" text not null, "name" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "owners_pkey" primary key ("id"));
alter table "owners" add constraint "owners_email_unique" unique ("email");
create table "sessions" ("id" text, "owner_id" text not null, "token_hash" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "expires_at" timestamptz not null, "revoked_at" timestamptz, constraint "sessions_pkey" primary key ("id"));
alter table "sessions" add constraint "sessions_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");
create index "sessions_expires_at_index" on "sessions" ("expires_at");
create table "profiles" ("id" text, "owner_id" text not null, "name" text not null, "description" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "profiles_pkey" primary key ("id"));
alter table "profiles" add constraint "profiles_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
create index "profiles_owner_id_id_index" on "profiles" ("owner_id", "id");
create table "api_keys" ("id" text, "owner_id" text not null, "name" text not null, "prefix" text not null, "secret_hash" text not null, "profile_ids" text[], "expires_at" timestamptz, "last_used_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "revoked_at" timestamptz, constraint "api_keys_pkey" primary key ("id"));
alter table "api_keys" add constraint "api_keys_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "api_keys" add constraint "api_keys_secret_hash_unique" unique ("secret_hash");
create index "api_keys_owner_id_id_index" on "api_keys" ("owner_id", "id");
create table "idempotency_keys" ("owner_id" text not null, "key" text not null, "request_hash" text not null, "state" text not null check ("state" in ('running','completed')), "response_status" integer, "response_headers" jsonb, "response_body" bytea, "locked_at" timestamptz not null default CURRENT_TIMESTAMP, "expires_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("owner_id", "key"));
alter table "idempotency_keys" add constraint "idempotency_keys_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");
create table "rate_limits" ("key" varchar(255), "points" integer not null default '0', "expire" bigint, constraint "rate_limits_pkey" primary key ("key"));

-- migration: 202611220234_hooks_events_and_deliveries
create table "events" ("id" text, "owner_id" text not null, "profile_id" text, "name" text not null, "data" jsonb not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "dispatched_at" timestamptz, constraint "events_pkey" primary key ("id"));
alter table "events" add constraint "events_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
CREATE INDEX events_undispatched ON events (id) WHERE dispatched_at IS NULL;
create table "hooks" ("id" text, "owner_id" text not null, "url" text not null, "events" text[] not null, "profile_ids" text[], "active" boolean not null default '1', "disabled_reason" text, "description" text, "secret_ciphertext" text not null, "previous_secret_ciphertext" text, "previous_secret_expires_at" timestamptz, "last_test_at" timestamptz, "last_success_at" timestamptz, "failing_since" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "hooks_pkey" primary key ("id"));
alter table "hooks" add constraint "hooks_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
create index "hooks_owner_id_id_index" on "hooks" ("owner_id", "id");
create table "deliveries" ("id" text, "hook_id" text not null, "event_id" text not null, "owner_id" text not null, "event" text not null, "body" text not null, "status" text not null check ("status" in ('pending','retrying','succeeded','failed')), "attempt_count" integer not null default '0', "max_attempts" integer not null, "next_attempt_at" timestamptz, "locked_until" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "delivered_at" timestamptz, constraint "deliveries_pkey" primary key ("id"));
alter table "deliveries" add constraint "deliveries_hook_id_foreign" foreign key ("hook_id") references "hooks" ("id") on delete CASCADE;
alter table "deliveries" add constraint "deliveries_event_id_foreign" foreign key ("event_id") references "events" ("id") on delete CASCADE;
alter table "deliveries" add constraint "deliveries_event_id_hook_id_unique" unique ("event_id", "hook_id");
create index "deliveries_hook_id_id_index" on "deliveries" ("hook_id", "id");
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying');
create table "delivery_attempts" ("id" bigserial primary key, "delivery_id" text not null, "at" timestamptz not null, "response_status" integer, "duration_ms" integer not null, "error_class" text, "response_snippet" text);
alter table "delivery_attempts" add constraint "delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "deliveries" ("id") on delete CASCADE;
create index "delivery_attempts_delivery_id_id_index" on "delivery_attempts" ("delivery_id", "id");

-- migration: 202611220254_accounts_platform_accounts_and_messages
create table "accounts" ("id" text, "owner_id" text not null, "profile_id" text not null, "platform" text not null, "kind" text not null, "platform_account_id" text, "name" text not null, "username" text, "avatar_url" text, "status" text not null check ("status" in ('connected','needs_reconnection','disconnected','pending')), "status_reason" text, "scopes" text[] not null default '{}', "credentials_ciphertext" text, "token_expires_at" timestamptz, "connected_at" timestamptz, "last_success_at" timestamptz, "last_error" jsonb, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "accounts_pkey" primary key ("id"));
alter table "accounts" add constraint "accounts_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "accounts" add constraint "accounts_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
create index "accounts_owner_id_id_index" on "accounts" ("owner_id", "id");
alter table "accounts" add constraint "accounts_owner_id_platform_platform_account_id_unique" unique ("owner_id", "platform", "platform_account_id");
create table "platform_webhooks" ("id" bigserial primary key, "platform" text not null, "dedupe_key" text not null, "source_account_id" text, "body" text not null, "headers" jsonb not null, "received_at" timestamptz not null default CURRENT_TIMESTAMP, "processed_at" timestamptz, "error" text);
alter table "platform_webhooks" add constraint "platform_webhooks_platform_dedupe_key_unique" unique ("platform", "dedupe_key");
create table "conversations" ("id" text, "owner_id" text not null, "profile_id" text not null, "account_id" text not null, "platform_conversation_id" text not null, "participant" jsonb not null, "last_message_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "conversations_pkey" primary key ("id"));
alter table "conversations" add constraint "conversations_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "conversations" add constraint "conversations_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
alter table "conversations" add constraint "conversations_account_id_platform_conversation_id_unique" unique ("account_id", "platform_conversation_id");
create table "messages" ("id" text, "conversation_id" text not null, "account_id" text not null, "direction" text not null check ("direction" in ('in','out')), "from_id" text not null, "text" text not null, "platform_message_id" text not null, "sent_at" timestamptz not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "messages_pkey" primary key ("id"));
alter table "messages" add constraint "messages_conversation_id_foreign" foreign key ("conversation_id") references "conversations" ("id") on delete CASCADE;
alter table "messages" add constraint "messages_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
alter table "messages" add constraint "messages_account_id_platform_message_id_unique" unique ("account_id", "platform_message_id");

-- migration: 202611220302_connect_oauth_connections
create table "oauth_states" ("state" text, "owner_id" text not null, "profile_id" text not null, "platform" text not null, "redirect_url" text, "code_verifier_ciphertext" text, "include" text[] not null default '{}', "created_at" timestamptz not null default CURRENT_TIMESTAMP, "expires_at" timestamptz not null, "used_at" timestamptz, constraint "oauth_states_pkey" primary key ("state"));
alter table "oauth_states" add constraint "oauth_states_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "oauth_states" add constraint "oauth_states_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
create table "pending_connections" ("id" text, "owner_id" text not null, "profile_id" text not null, "platform" text not null, "credentials_ciphertext" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "expires_at" timestamptz not null, constraint "pending_connections_pkey" primary key ("id"));
alter table "pending_connections" add constraint "pending_connections_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "pending_connections" add constraint "pending_connections_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;

-- migration: 202611220304_accounts_ad_accounts
create table "ad_accounts" ("id" text, "owner_id" text not null, "profile_id" text not null, "platform" text not null, "platform_ad_account_id" text not null, "name" text not null, "currency" text not null, "timezone" text not null, "status" text not null check ("status" in ('connected','needs_reconnection','disconnected','pending')), "status_reason" text, "platform_status" text not null default 'unknown', "credentials_ciphertext" text, "token_expires_at" timestamptz, "connected_at" timestamptz not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "ad_accounts_pkey" primary key ("id"));
alter table "ad_accounts" add constraint "ad_accounts_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "ad_accounts" add constraint "ad_accounts_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
create index "ad_accounts_owner_id_id_index" on "ad_accounts" ("owner_id", "id");
alter table "ad_accounts" add constraint "ad_accounts_owner_id_platform_platform_ad_account_id_unique" unique ("owner_id", "platform", "platform_ad_account_id");

-- migration: 202611220314_messaging_conversation_state
alter table "conversations" add column "unread_count" integer not null default '0', add column "tags" text[] not null default '{}', add column "updated_at" timestamptz not null default CURRENT_TIMESTAMP;
create index "conversations_account_id_id_index" on "conversations" ("account_id", "id");
alter table "messages" add column "type" text not null default 'text', add column "status" text not null default 'received';
create index "messages_conversation_id_id_index" on "messages" ("conversation_id", "id");

-- migration: 202611220334_accounts_platform_user_ids
alter table "accounts" add column "platform_user_id" text;
create index "accounts_platform_platform_user_id_index" on "accounts" ("platform", "platform_user_id");
alter table "ad_accounts" add column "platform_user_id" text;
create index "ad_accounts_platform_platform_user_id_index" on "ad_accounts" ("platform", "platform_user_id");

-- migration: 202611220335_connect_qrchat_sessions
create table "qrchat_sessions" ("account_id" text, "state" text not null default 'disconnected' check ("state" in ('disconnected','connecting','qr_pending','code_pending','pairing','open','logged_out')), "qr" text, "qr_expires_at" timestamptz, "pairing_code" text, "phone_number" text, "pairing_expires_at" timestamptz, "generation" integer not null default '0', "auth_ciphertext" text, "held_by" text, "lease_expires_at" timestamptz, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "qrchat_sessions_pkey" primary key ("account_id"));
alter table "qrchat_sessions" add constraint "qrchat_sessions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;

-- migration: 202611220346_media_files
create table "media" ("id" text, "owner_id" text not null, "profile_id" text, "kind" text not null check ("kind" in ('image','gif','video','audio','document')), "mime_type" text not null, "size" bigint not null, "width" integer, "height" integer, "duration_ms" integer, "codec" text, "frame_rate" double precision, "sha256" text not null, "filename" text, "storage_key" text not null, "token" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "media_pkey" primary key ("id"));
alter table "media" add constraint "media_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "media" add constraint "media_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
alter table "media" add constraint "media_token_unique" unique ("token");
create index "media_owner_id_id_index" on "media" ("owner_id", "id");
create index "media_profile_id_index" on "media" ("profile_id");

-- migration: 202611220351_publishing_posts_targets_and_queue
create table "posts" ("id" text, "owner_id" text not null, "profile_id" text not null, "status" text not null check ("status" in ('scheduled','processing','published','partial','failed','cancelled','deleted')), "text" text, "media_ids" text[] not null default '{}', "platform_options" jsonb not null default '{}', "scheduled_at" timestamptz not null, "publish_now" boolean not null default '0', "published_at" timestamptz, "timezone" text, "slot_id" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "posts_pkey" primary key ("id"));
alter table "posts" add constraint "posts_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "posts" add constraint "posts_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
create index "posts_owner_id_scheduled_at_id_index" on "posts" ("owner_id", "scheduled_at", "id");
CREATE UNIQUE INDEX posts_slot_occurrence ON posts (slot_id, scheduled_at) WHERE slot_id IS NOT NULL AND status = 'scheduled';
CREATE INDEX posts_queue ON posts (profile_id, scheduled_at, id) WHERE slot_id IS NOT NULL AND status = 'scheduled';
create table "post_targets" ("post_id" text not null, "account_id" text not null, "position" integer not null, "platform" text not null, "status" text not null check ("status" in ('scheduled','processing','published','failed','cancelled','deleted')), "platform_post_id" text, "url" text, "published_at" timestamptz, "attempts" integer not null default '0', "failure" jsonb, "due_at" timestamptz, "locked_until" timestamptz, "attempt_started_at" timestamptz, "progress" jsonb not null default '{}', constraint "post_targets_pkey" primary key ("post_id", "account_id"));
alter table "post_targets" add constraint "post_targets_post_id_foreign" foreign key ("post_id") references "posts" ("id") on delete CASCADE;
alter table "post_targets" add constraint "post_targets_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
create index "post_targets_account_id_post_id_index" on "post_targets" ("account_id", "post_id");
CREATE INDEX post_targets_due ON post_targets (due_at) WHERE status IN ('scheduled', 'processing');
create table "queue_slots" ("id" text, "owner_id" text not null, "profile_id" text not null, "day_of_week" smallint not null, "time" text not null, "timezone" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "queue_slots_pkey" primary key ("id"));
alter table "queue_slots" add constraint "queue_slots_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "queue_slots" add constraint "queue_slots_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
alter table "queue_slots" add constraint "queue_slots_profile_id_day_of_week_time_timezone_unique" unique ("profile_id", "day_of_week", "time", "timezone");

-- migration: 202611240100_platform_writes
create table "platform_writes" ("owner_id" text not null, "account_id" text not null, "key" text not null, "kind" text not null, "request" jsonb not null, "status" text not null check ("status" in ('started','succeeded','failed','unknown')), "attempts" integer not null default '1', "started_at" timestamptz not null, "lease_until" timestamptz, "result" jsonb, "failure" jsonb, "settled_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "platform_writes_pkey" primary key ("owner_id", "account_id", "key"));
alter table "platform_writes" add constraint "platform_writes_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;

-- migration: 202611240102_usage_counters
create table "usage_counters" ("owner_id" text not null, "profile_id" text not null default '', "period" text not null, "counter" text not null, "value" bigint not null default '0', "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "usage_counters_pkey" primary key ("owner_id", "period", "counter", "profile_id"));

-- migration: 202611240103_billing_accounts
create table "billing_accounts" ("owner_id" text, "customer_id" text, "subscription_id" text, "plan" text, "subscription_status" text not null default 'none', "current_period_start" timestamptz, "current_period_end" timestamptz, "cancel_at_period_end" boolean not null default '0', "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "billing_accounts_pkey" primary key ("owner_id"));
alter table "billing_accounts" add constraint "billing_accounts_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "billing_accounts" add constraint "billing_accounts_customer_id_unique" unique ("customer_id");

-- migration: 202611240104_auth_announce_principal_changes
CREATE FUNCTION socialgate_announce_principal_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('socialgate_principals', OLD.id);
      RETURN NULL;
    END $$;
CREATE FUNCTION socialgate_announce_principals_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT count(*) FROM deleted) > 100 THEN
        PERFORM pg_notify('socialgate_principals', '*');
      ELSE
        PERFORM pg_notify('socialgate_principals', id) FROM deleted;
      END IF;
      RETURN NULL;
    END $$;
CREATE TRIGGER sessions_announce_change AFTER UPDATE OF revoked_at, expires_at, owner_id ON sessions
        FOR EACH ROW EXECUTE FUNCTION socialgate_announce_principal_change();
CREATE TRIGGER sessions_announce_deleted AFTER DELETE ON sessions REFERENCING OLD TABLE AS deleted
        FOR EACH STATEMENT EXECUTE FUNCTION socialgate_announce_principals_deleted();
CREATE TRIGGER api_keys_announce_change AFTER UPDATE OF revoked_at, expires_at, owner_id, profile_ids ON api_keys
        FOR EACH ROW EXECUTE FUNCTION socialgate_announce_principal_change();
CREATE TRIGGER api_keys_announce_deleted AFTER DELETE ON api_keys REFERENCING OLD TABLE AS deleted
        FOR EACH STATEMENT EXECUTE FUNCTION socialgate_announce_principals_deleted();

-- migration: 202611240105_publishing_post_list_indexes
CREATE INDEX posts_profile_listing ON posts (profile_id, scheduled_at, id);
CREATE INDEX posts_status_listing ON posts (owner_id, status, scheduled_at, id);

-- migration: 202611241437_accounts_platform_check
ALTER TABLE accounts ADD COLUMN platform_problem text, ADD COLUMN platform_checked_at timestamptz;

-- migration: 202611241517_publishing_account_post_listing
ALTER TABLE post_targets ADD COLUMN scheduled_at timestamptz;
UPDATE post_targets t SET scheduled_at = p.scheduled_at FROM posts p WHERE p.id = t.post_id;
ALTER TABLE post_targets ALTER COLUMN scheduled_at SET NOT NULL;
CREATE INDEX post_targets_account_listing ON post_targets (account_id, scheduled_at, post_id);
DROP INDEX post_targets_account_id_post_id_index;

-- migration: 202611241600_messaging_attachments_and_statuses
alter table "messages" add column "attachments" jsonb not null default '[]', add column "status_history" jsonb not null default '[]', add column "error" jsonb, add column "reply_to_comment_id" text;

-- migration: 202611241601_messaging_early_receipts
create table "early_receipts" ("account_id" text not null, "platform_message_id" text not null, "status" text not null, "at" timestamptz not null, "error" jsonb, "received_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "early_receipts_pkey" primary key ("account_id", "platform_message_id", "status"));
alter table "early_receipts" add constraint "early_receipts_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
create index "early_receipts_received_at_index" on "early_receipts" ("received_at");

-- migration: 202611241630_comments_store
create table "comments" ("id" text, "owner_id" text not null, "profile_id" text not null, "account_id" text not null, "platform" text not null, "platform_comment_id" text not null, "platform_post_id" text not null, "post_id" text, "parent_id" text, "author_id" text, "author_name" text, "author_username" text, "text" text not null default '', "text_at" timestamptz, "hidden" boolean not null default '0', "hidden_at" timestamptz, "deleted" boolean not null default '0', "known" boolean not null default '1', "like_count" integer, "permalink" text, "can_hide" boolean not null default '0', "can_delete" boolean not null default '0', "can_reply" boolean not null default '1', "can_reply_privately" boolean not null default '0', "written_at" timestamptz not null, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "comments_pkey" primary key ("id"));
alter table "comments" add constraint "comments_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "comments" add constraint "comments_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
alter table "comments" add constraint "comments_account_id_platform_comment_id_unique" unique ("account_id", "platform_comment_id");
CREATE INDEX comments_account_listing ON comments (account_id, id) WHERE NOT deleted AND known;
CREATE INDEX comments_post_listing ON comments (account_id, platform_post_id, id) WHERE NOT deleted AND known;
CREATE INDEX comments_replies ON comments (account_id, parent_id) WHERE parent_id IS NOT NULL;
create table "comment_backfills" ("account_id" text not null, "scope" text not null, "done_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "comment_backfills_pkey" primary key ("account_id", "scope"));
alter table "comment_backfills" add constraint "comment_backfills_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;

-- migration: 202611241700_ai_tasks
create table "ai_tasks" ("id" text, "owner_id" text not null, "profile_id" text, "kind" text not null check ("kind" in ('copy','image','video','audio')), "status" text not null check ("status" in ('queued','running','succeeded','failed','cancelled')), "provider" text not null, "model" text not null, "input" jsonb not null, "plan" jsonb not null, "provider_job_id" text, "progress" integer, "attempts" integer not null default '0', "next_attempt_at" timestamptz not null default CURRENT_TIMESTAMP, "locked_until" timestamptz, "deadline_at" timestamptz not null, "result" jsonb, "usage" jsonb, "error" jsonb, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "completed_at" timestamptz, constraint "ai_tasks_pkey" primary key ("id"));
alter table "ai_tasks" add constraint "ai_tasks_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "ai_tasks" add constraint "ai_tasks_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
CREATE INDEX ai_tasks_owner_list ON ai_tasks (owner_id, id DESC);
CREATE INDEX ai_tasks_due ON ai_tasks (next_attempt_at) WHERE status IN ('queued', 'running');

-- migration: 202611241730_analytics_tables
create table "analytics_cache" ("account_id" text not null, "key" text not null, "figures" jsonb not null, "updated_at" timestamptz not null, "expires_at" timestamptz not null, constraint "analytics_cache_pkey" primary key ("account_id", "key"));
alter table "analytics_cache" add constraint "analytics_cache_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
create index "analytics_cache_expires_at_index" on "analytics_cache" ("expires_at");
create table "analytics_dead_metrics" ("platform" text not null, "api_version" text not null, "metric" text not null, "refusal" text not null, "found_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "analytics_dead_metrics_pkey" primary key ("platform", "api_version", "metric"));
create table "analytics_follower_snapshots" ("account_id" text not null, "day" date not null, "followers" integer not null, "taken_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "analytics_follower_snapshots_pkey" primary key ("account_id", "day"));
alter table "analytics_follower_snapshots" add constraint "analytics_follower_snapshots_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
create table "analytics_throttles" ("account_id" text, "until" timestamptz not null, "message" text not null, constraint "analytics_throttles_pkey" primary key ("account_id"));
alter table "analytics_throttles" add constraint "analytics_throttles_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;

-- migration: 202611241800_wallet_programs_and_passes
create table "wallet_programs" ("id" text, "owner_id" text not null, "profile_id" text not null, "name" text not null, "pass_style" text not null, "transit_type" text, "organization_name" text not null, "description" text not null, "colors" jsonb, "logo_media_id" text, "icon_media_id" text, "logo_text" text, "fields" jsonb not null default '[]', "barcode_format" text, "pass_type_identifier" text, "team_identifier" text, "certificate_pem" text, "sealed_private_key" text, "wwdr_pem" text, "certificate" jsonb, "certificate_expires_at" timestamptz, "connected_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "wallet_programs_pkey" primary key ("id"));
alter table "wallet_programs" add constraint "wallet_programs_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "wallet_programs" add constraint "wallet_programs_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
create index "wallet_programs_owner_id_id_index" on "wallet_programs" ("owner_id", "id");
CREATE SEQUENCE wallet_pass_tags;
create table "wallet_passes" ("id" text, "program_id" text not null, "owner_id" text not null, "profile_id" text not null, "pass_type_identifier" text not null, "serial_number" text not null, "holder_name" text, "holder_email" text, "fields" jsonb not null default '{}', "barcode_message" text not null, "balance" bigint not null default '0', "expires_at" timestamptz, "sealed_download_token" text not null, "sealed_authentication_token" text not null, "update_tag" bigint not null default nextval('wallet_pass_tags'), "modified_at" timestamptz not null default date_trunc('second', now()), "deleted_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "wallet_passes_pkey" primary key ("id"));
alter table "wallet_passes" add constraint "wallet_passes_program_id_foreign" foreign key ("program_id") references "wallet_programs" ("id") on delete CASCADE;
alter table "wallet_passes" add constraint "wallet_passes_pass_type_identifier_serial_number_unique" unique ("pass_type_identifier", "serial_number");
create index "wallet_passes_program_id_id_index" on "wallet_passes" ("program_id", "id");
ALTER TABLE wallet_passes ADD CONSTRAINT wallet_passes_balance_not_negative CHECK (balance >= 0);
create table "wallet_transactions" ("id" text, "pass_id" text not null, "type" text not null, "points" bigint not null, "amount" bigint, "currency" text, "note" text, "reference" text, "balance_after" bigint not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "wallet_transactions_pkey" primary key ("id"));
alter table "wallet_transactions" add constraint "wallet_transactions_pass_id_foreign" foreign key ("pass_id") references "wallet_passes" ("id") on delete CASCADE;
create index "wallet_transactions_pass_id_id_index" on "wallet_transactions" ("pass_id", "id");

-- migration: 202611241801_wallet_devices_and_pushes
create table "wallet_registrations" ("device_library_identifier" text not null, "pass_id" text not null, "push_token" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "wallet_registrations_pkey" primary key ("device_library_identifier", "pass_id"));
alter table "wallet_registrations" add constraint "wallet_registrations_pass_id_foreign" foreign key ("pass_id") references "wallet_passes" ("id") on delete CASCADE;
create index "wallet_registrations_pass_id_index" on "wallet_registrations" ("pass_id");
create index "wallet_registrations_push_token_index" on "wallet_registrations" ("push_token");
create table "wallet_pushes" ("id" bigserial primary key, "push_token" text not null, "pass_type_identifier" text not null, "program_id" text not null, "requeued" boolean not null default '0', "attempts" integer not null default '0', "due_at" timestamptz not null default CURRENT_TIMESTAMP, "lease_until" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP);
alter table "wallet_pushes" add constraint "wallet_pushes_program_id_foreign" foreign key ("program_id") references "wallet_programs" ("id") on delete CASCADE;
alter table "wallet_pushes" add constraint "wallet_pushes_push_token_pass_type_identifier_unique" unique ("push_token", "pass_type_identifier");
create index "wallet_pushes_due_at_index" on "wallet_pushes" ("due_at");

-- migration: 202611241900_billing_events_and_invoices
alter table "billing_accounts" add column "subscription_created_at" timestamptz;
create table "billing_events" ("id" text, "type" text not null, "body" text not null, "received_at" timestamptz not null default CURRENT_TIMESTAMP, "processed_at" timestamptz, "error" text, constraint "billing_events_pkey" primary key ("id"));
create index "billing_events_processed_at_received_at_index" on "billing_events" ("processed_at", "received_at");
create table "billing_invoices" ("id" text, "owner_id" text not null, "number" text, "status" text not null, "amount_due" integer not null, "amount_paid" integer not null, "currency" text not null, "plan" text not null, "period_start" timestamptz not null, "period_end" timestamptz not null, "hosted_invoice_url" text, "invoice_pdf_url" text, "provider_created_at" timestamptz not null, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "billing_invoices_pkey" primary key ("id"));
alter table "billing_invoices" add constraint "billing_invoices_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
create index "billing_invoices_owner_id_provider_created_at_id_index" on "billing_invoices" ("owner_id", "provider_created_at", "id");
create table "billing_invoice_transitions" ("invoice_id" text not null, "transition" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "billing_invoice_transitions_pkey" primary key ("invoice_id", "transition"));
alter table "billing_invoice_transitions" add constraint "billing_invoice_transitions_invoice_id_foreign" foreign key ("invoice_id") references "billing_invoices" ("id") on delete CASCADE;
create table "billing_invoice_cancellations" ("id" bigserial primary key, "invoice_id" text not null, "status" text not null, "method" text not null, "reason" text, "amount" integer not null, "currency" text not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP);
alter table "billing_invoice_cancellations" add constraint "billing_invoice_cancellations_invoice_id_foreign" foreign key ("invoice_id") references "billing_invoices" ("id") on delete CASCADE;
CREATE UNIQUE INDEX billing_invoice_cancellations_live ON billing_invoice_cancellations (invoice_id) WHERE status <> 'rejected';

-- migration: 202611242000_automations_rules_and_runs
create table "automations" ("id" text, "owner_id" text not null, "profile_id" text not null, "name" text not null, "account_ids" text[] not null, "trigger_type" text not null check ("trigger_type" in ('message_received','comment_received')), "keywords" text[] not null default '{}', "match_type" text not null check ("match_type" in ('exact','contains','regex')), "case_sensitive" boolean not null default '0', "post_ids" text[] not null default '{}', "actions" jsonb not null, "active" boolean not null default '1', "priority" integer not null default '0', "stop_on_match" boolean not null default '0', "cooldown_seconds" integer not null default '0', "once_per_person" boolean not null default '0', "triggered_count" integer not null default '0', "succeeded_count" integer not null default '0', "failed_count" integer not null default '0', "last_triggered_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "automations_pkey" primary key ("id"));
alter table "automations" add constraint "automations_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "automations" add constraint "automations_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
create index "automations_owner_id_id_index" on "automations" ("owner_id", "id");
create index "automations_profile_id_index" on "automations" ("profile_id");
CREATE INDEX automations_account_ids ON automations USING gin (account_ids) WHERE active;
create table "automation_runs" ("id" text, "automation_id" text not null, "owner_id" text not null, "profile_id" text not null, "account_id" text not null, "platform" text not null, "trigger_type" text not null, "source_kind" text not null check ("source_kind" in ('message','comment')), "source_id" text not null, "conversation_id" text, "platform_post_id" text, "person_id" text not null, "person_name" text, "text" text not null, "matched_keyword" text, "actions" jsonb not null, "outcomes" jsonb not null default '[]', "status" text not null check ("status" in ('running','succeeded','failed')), "attempts" integer not null default '0', "locked_until" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "finished_at" timestamptz, constraint "automation_runs_pkey" primary key ("id"));
alter table "automation_runs" add constraint "automation_runs_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "automation_runs" add constraint "automation_runs_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
alter table "automation_runs" add constraint "automation_runs_automation_id_source_kind_source_id_unique" unique ("automation_id", "source_kind", "source_id");
create index "automation_runs_automation_id_id_index" on "automation_runs" ("automation_id", "id");
CREATE INDEX automation_runs_open ON automation_runs (locked_until, created_at) WHERE status = 'running';
create table "automation_people" ("automation_id" text not null, "account_id" text not null, "person_id" text not null, "last_source_at" timestamptz not null, constraint "automation_people_pkey" primary key ("automation_id", "account_id", "person_id"));
alter table "automation_people" add constraint "automation_people_automation_id_foreign" foreign key ("automation_id") references "automations" ("id") on delete CASCADE;

-- migration: 202611242100_messaging_qrchat_sends
create table "qrchat_sends" ("account_id" text not null, "platform_message_id" text not null, "message" jsonb not null, "status" text not null default 'queued' check ("status" in ('queued','sent','failed')), "error" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "settled_at" timestamptz, constraint "qrchat_sends_pkey" primary key ("account_id", "platform_message_id"));
alter table "qrchat_sends" add constraint "qrchat_sends_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
create index qrchat_sends_queued on qrchat_sends (account_id, created_at) where status = 'queued';

-- migration: 202611242130_webhooks_intake_queue
alter table "platform_webhooks" add column "attempts" integer not null default '0', add column "next_attempt_at" timestamptz not null default CURRENT_TIMESTAMP, add column "locked_until" timestamptz, add column "failed_at" timestamptz;
ALTER TABLE platform_webhooks ADD COLUMN intake_key text GENERATED ALWAYS AS (coalesce(source_account_id, 'platform:' || platform)) STORED;
CREATE INDEX platform_webhooks_intake_idx ON platform_webhooks (intake_key, id) WHERE processed_at IS NULL AND failed_at IS NULL;

-- migration: 202611261640_accounts_page_scopes_granted

-- migration: 202611261700_accounts_ad_accounts_credentialed
ALTER TABLE ad_accounts
      ADD COLUMN scopes text[] NOT NULL DEFAULT '{}',
      ADD COLUMN last_success_at timestamptz,
      ADD COLUMN last_error jsonb,
      ADD COLUMN platform_checked_at timestamptz;

-- migration: 202611261710_billing_events_into_intake
INSERT INTO platform_webhooks (platform, dedupe_key, body, headers, received_at)
     SELECT 'billing', 'event:' || id, body, '{}'::jsonb, received_at FROM billing_events
     WHERE processed_at IS NULL ORDER BY received_at
     ON CONFLICT (platform, dedupe_key) DO NOTHING;
drop table "billing_events";

-- migration: 202611261720_messaging_private_replies_index
CREATE INDEX messages_private_replies_idx ON messages (account_id, reply_to_comment_id) WHERE reply_to_comment_id IS NOT NULL;

-- migration: 202611261930_ads_creative_tasks
create table "ad_creative_tasks" ("id" text, "owner_id" text not null, "ad_account_id" text not null, "write_key" text not null, "status" text not null check ("status" in ('processing','succeeded','failed')), "video_id" text not null, "request" jsonb not null, "creative" jsonb, "error" jsonb, "attempts" integer not null default '0', "next_attempt_at" timestamptz not null default CURRENT_TIMESTAMP, "locked_until" timestamptz, "deadline_at" timestamptz not null, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "completed_at" timestamptz, constraint "ad_creative_tasks_pkey" primary key ("id"));
alter table "ad_creative_tasks" add constraint "ad_creative_tasks_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "ad_creative_tasks" add constraint "ad_creative_tasks_ad_account_id_foreign" foreign key ("ad_account_id") references "ad_accounts" ("id") on delete CASCADE;
alter table "ad_creative_tasks" add constraint "ad_creative_tasks_owner_id_write_key_unique" unique ("owner_id", "write_key");
CREATE INDEX ad_creative_tasks_due ON ad_creative_tasks (next_attempt_at) WHERE status = 'processing';

-- migration: 202611261931_ads_object_changes
create table "ad_object_changes" ("ad_account_id" text not null, "object_key" text not null, "field" text not null, "platform_time" timestamptz not null, "fingerprint" text not null, "emitted" boolean not null, "received_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "ad_object_changes_pkey" primary key ("ad_account_id", "object_key", "field", "platform_time", "fingerprint"));
alter table "ad_object_changes" add constraint "ad_object_changes_ad_account_id_foreign" foreign key ("ad_account_id") references "ad_accounts" ("id") on delete CASCADE;

-- migration: 202611261940_commerce_catalogs_products_batches
create table "commerce_catalogs" ("id" text, "owner_id" text not null, "profile_id" text not null, "account_id" text not null, "platform" text not null, "platform_catalog_id" text not null, "business_id" text not null, "name" text not null, "vertical" text not null, "product_count" integer not null default '0', "products_read_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "commerce_catalogs_pkey" primary key ("id"));
alter table "commerce_catalogs" add constraint "commerce_catalogs_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "commerce_catalogs" add constraint "commerce_catalogs_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
alter table "commerce_catalogs" add constraint "commerce_catalogs_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
alter table "commerce_catalogs" add constraint "commerce_catalogs_account_id_platform_catalog_id_unique" unique ("account_id", "platform_catalog_id");
CREATE INDEX commerce_catalogs_owner_list ON commerce_catalogs (owner_id, id DESC);
create table "commerce_products" ("id" text, "catalog_id" text not null, "retailer_id" text not null, "platform_product_id" text, "fields" jsonb not null, "availability" text not null, "review_status" text, "sync_status" text not null check ("sync_status" in ('pending','synced','failed')), "sync_operation" text not null check ("sync_operation" in ('create','update','delete')), "sync_batch_id" text, "sync_errors" jsonb not null default '[]', "synced_at" timestamptz, "deleted_at" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "commerce_products_pkey" primary key ("id"));
alter table "commerce_products" add constraint "commerce_products_catalog_id_foreign" foreign key ("catalog_id") references "commerce_catalogs" ("id") on delete CASCADE;
CREATE UNIQUE INDEX commerce_products_retailer ON commerce_products (catalog_id, retailer_id) WHERE deleted_at IS NULL;
CREATE INDEX commerce_products_list ON commerce_products (catalog_id, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX commerce_products_availability ON commerce_products (catalog_id, availability, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX commerce_products_sync ON commerce_products (catalog_id, sync_status, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX commerce_products_review ON commerce_products (catalog_id, review_status, id DESC) WHERE deleted_at IS NULL;
create table "commerce_batches" ("id" text, "owner_id" text not null, "catalog_id" text not null, "status" text not null check ("status" in ('processing','finished')), "item_count" integer not null, "succeeded_count" integer not null default '0', "failed_count" integer not null default '0', "created_at" timestamptz not null default CURRENT_TIMESTAMP, "finished_at" timestamptz, constraint "commerce_batches_pkey" primary key ("id"));
alter table "commerce_batches" add constraint "commerce_batches_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "commerce_batches" add constraint "commerce_batches_catalog_id_foreign" foreign key ("catalog_id") references "commerce_catalogs" ("id") on delete CASCADE;
create table "commerce_batch_parts" ("batch_id" text not null, "part" integer not null, "account_id" text not null, "status" text not null check ("status" in ('unsent','sent','done')), "handle" text, "generation" integer not null default '0', "attempts" integer not null default '0', "next_attempt_at" timestamptz not null default CURRENT_TIMESTAMP, "locked_until" timestamptz, "give_up_at" timestamptz not null, constraint "commerce_batch_parts_pkey" primary key ("batch_id", "part"));
alter table "commerce_batch_parts" add constraint "commerce_batch_parts_batch_id_foreign" foreign key ("batch_id") references "commerce_batches" ("id") on delete CASCADE;
alter table "commerce_batch_parts" add constraint "commerce_batch_parts_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete CASCADE;
CREATE INDEX commerce_batch_parts_due ON commerce_batch_parts (next_attempt_at) WHERE status <> 'done';
create table "commerce_batch_items" ("batch_id" text not null, "index" integer not null, "part" integer, "method" text not null check ("method" in ('CREATE','UPDATE','DELETE')), "retailer_id" text not null, "product_id" text, "data" jsonb, "status" text not null check ("status" in ('pending','succeeded','failed')), "errors" jsonb not null default '[]', constraint "commerce_batch_items_pkey" primary key ("batch_id", "index"));
alter table "commerce_batch_items" add constraint "commerce_batch_items_batch_id_foreign" foreign key ("batch_id") references "commerce_batches" ("id") on delete CASCADE;
CREATE INDEX commerce_batch_items_part ON commerce_batch_items (batch_id, part);
create table "commerce_product_sets" ("id" text, "catalog_id" text not null, "platform_product_set_id" text not null, "name" text not null, "filter" jsonb, "product_count" integer not null default '0', "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "commerce_product_sets_pkey" primary key ("id"));
alter table "commerce_product_sets" add constraint "commerce_product_sets_catalog_id_foreign" foreign key ("catalog_id") references "commerce_catalogs" ("id") on delete CASCADE;
alter table "commerce_product_sets" add constraint "commerce_product_sets_catalog_id_platform_product_set_id_unique" unique ("catalog_id", "platform_product_set_id");
CREATE INDEX commerce_product_sets_list ON commerce_product_sets (catalog_id, id DESC);

-- migration: 202611261950_leads_leads_states_backfills
create table "leads" ("id" text, "owner_id" text not null, "profile_id" text not null, "account_id" text not null, "platform" text not null, "platform_lead_id" text not null, "form_id" text not null, "form_name" text, "ad_id" text, "adset_id" text, "campaign_id" text, "source_platform" text, "fields" jsonb not null default '{}', "is_organic" boolean not null default '0', "is_test" boolean not null default '0', "platform_test" boolean not null default '0', "created_at" timestamptz not null, "received_at" timestamptz not null default CURRENT_TIMESTAMP, "retrieval_status" text not null default 'pending', "retrieval_reason" text, "attempts" integer not null default '0', "next_attempt_at" timestamptz, "locked_until" timestamptz, "state" text not null default 'new', "note" text, "assignee" text, "state_version" integer not null default '0', "state_updated_by" text, "state_updated_at" timestamptz not null, constraint "leads_pkey" primary key ("id"));
alter table "leads" add constraint "leads_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "leads" add constraint "leads_account_id_platform_lead_id_unique" unique ("account_id", "platform_lead_id");
CREATE INDEX leads_listing ON leads (account_id, id);
CREATE INDEX leads_form_listing ON leads (account_id, form_id, id);
CREATE INDEX leads_state_listing ON leads (account_id, state_updated_at DESC, id DESC);
CREATE INDEX leads_due ON leads (next_attempt_at) WHERE retrieval_status <> 'retrieved';
CREATE INDEX leads_retention ON leads (received_at);
create table "lead_state_changes" ("id" bigserial primary key, "lead_id" text not null, "version" integer not null, "state" text not null, "note" text, "assignee" text, "changed_by" text not null, "changed_at" timestamptz not null default CURRENT_TIMESTAMP);
alter table "lead_state_changes" add constraint "lead_state_changes_lead_id_foreign" foreign key ("lead_id") references "leads" ("id") on delete CASCADE;
alter table "lead_state_changes" add constraint "lead_state_changes_lead_id_version_unique" unique ("lead_id", "version");
create table "lead_backfills" ("account_id" text, "owner_id" text not null, "since" timestamptz not null, "requested_at" timestamptz not null default CURRENT_TIMESTAMP, "due_at" timestamptz not null default CURRENT_TIMESTAMP, "done_at" timestamptz, "locked_until" timestamptz, "attempts" integer not null default '0', "last_error" text, constraint "lead_backfills_pkey" primary key ("account_id"));
alter table "lead_backfills" add constraint "lead_backfills_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;

-- migration: 202611262110_ads_audience_uploads
create table "ad_audience_uploads" ("id" text, "owner_id" text not null, "ad_account_id" text not null, "audience_id" text not null, "action" text not null check ("action" in ('add','remove')), "status" text not null check ("status" in ('uploading','complete','failed')), "read" integer not null default '0', "received" integer not null default '0', "invalid" integer not null default '0', "matched" integer, "batches" integer not null default '0', "fields" jsonb not null default '[]', "unused_fields" jsonb not null default '[]', "session_id" text, "samples" jsonb not null default '[]', "error" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "finished_at" timestamptz, constraint "ad_audience_uploads_pkey" primary key ("id"));
alter table "ad_audience_uploads" add constraint "ad_audience_uploads_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "ad_audience_uploads" add constraint "ad_audience_uploads_ad_account_id_foreign" foreign key ("ad_account_id") references "ad_accounts" ("id") on delete CASCADE;
CREATE INDEX ad_audience_uploads_audience ON ad_audience_uploads (ad_account_id, audience_id, id DESC);

-- migration: 202611262120_ads_pixel_events
create table "ad_pixel_events" ("ad_account_id" text not null, "pixel_id" text not null, "event_name" text not null, "event_id" text not null, "sent_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "ad_pixel_events_pkey" primary key ("ad_account_id", "pixel_id", "event_name", "event_id"));
alter table "ad_pixel_events" add constraint "ad_pixel_events_ad_account_id_foreign" foreign key ("ad_account_id") references "ad_accounts" ("id") on delete CASCADE;
CREATE INDEX ad_pixel_events_retention ON ad_pixel_events (sent_at);

-- migration: 202611262130_ads_boosts
create table "ad_boosts" ("id" text, "owner_id" text not null, "ad_account_id" text not null, "profile_id" text not null, "write_key" text not null, "post_id" text, "platform_post_id" text not null, "name" text not null, "status" text not null check ("status" in ('creating','active','paused','stopped','rolling_back','failed')), "plan" jsonb not null, "currency" text not null, "start_time" timestamptz not null, "end_time" timestamptz not null, "error" jsonb, "attempts" integer not null default '0', "next_attempt_at" timestamptz not null default CURRENT_TIMESTAMP, "locked_until" timestamptz, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "updated_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "ad_boosts_pkey" primary key ("id"));
alter table "ad_boosts" add constraint "ad_boosts_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "ad_boosts" add constraint "ad_boosts_ad_account_id_foreign" foreign key ("ad_account_id") references "ad_accounts" ("id") on delete CASCADE;
alter table "ad_boosts" add constraint "ad_boosts_owner_id_write_key_unique" unique ("owner_id", "write_key");
create index "ad_boosts_owner_id_created_at_id_index" on "ad_boosts" ("owner_id", "created_at", "id");
CREATE INDEX ad_boosts_due ON ad_boosts (next_attempt_at) WHERE status IN ('creating', 'rolling_back');
create table "ad_boost_steps" ("boost_id" text not null, "step" text not null check ("step" in ('campaign','adset','creative','ad')), "position" integer not null, "state" text not null check ("state" in ('pending','sending','done','refused','deleted')), "platform_id" text, "sent_at" timestamptz, "done_at" timestamptz, "deleted_at" timestamptz, constraint "ad_boost_steps_pkey" primary key ("boost_id", "step"));
alter table "ad_boost_steps" add constraint "ad_boost_steps_boost_id_foreign" foreign key ("boost_id") references "ad_boosts" ("id") on delete CASCADE;

-- migration: 202611262131_ads_dark_posts
create table "ad_dark_posts" ("ad_account_id" text not null, "creative_id" text not null, "owner_id" text not null, "profile_id" text not null, "account_id" text not null, "name" text not null, "platform_post_id" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "ad_dark_posts_pkey" primary key ("ad_account_id", "creative_id"));
alter table "ad_dark_posts" add constraint "ad_dark_posts_ad_account_id_foreign" foreign key ("ad_account_id") references "ad_accounts" ("id") on delete CASCADE;
alter table "ad_dark_posts" add constraint "ad_dark_posts_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
create index "ad_dark_posts_owner_id_created_at_creative_id_index" on "ad_dark_posts" ("owner_id", "created_at", "creative_id");

-- migration: 202611262150_commerce_products_review_due
CREATE INDEX commerce_products_review_due ON commerce_products (updated_at)
     WHERE review_status = 'pending' AND sync_status = 'synced' AND deleted_at IS NULL AND platform_product_id IS NOT NULL;

-- migration: 202611270110_publishing_drafts
ALTER TABLE posts DROP CONSTRAINT posts_status_check, ADD CONSTRAINT posts_status_check
      CHECK (status IN ('draft', 'scheduled', 'processing', 'published', 'partial', 'failed', 'cancelled', 'deleted'));
ALTER TABLE post_targets DROP CONSTRAINT post_targets_status_check, ADD CONSTRAINT post_targets_status_check
      CHECK (status IN ('draft', 'scheduled', 'processing', 'published', 'failed', 'cancelled', 'deleted'));

-- migration: 202611270120_publishing_posts_media_index
CREATE INDEX posts_unpublished_media ON posts USING gin (media_ids) WHERE status IN ('scheduled', 'processing', 'draft');

-- migration: 202611270121_media_uploads
create table "media_uploads" ("id" text, "owner_id" text not null, "profile_id" text, "filename" text, "length" bigint, "status" text not null default 'uploading' check ("status" in ('uploading','processing','completed','failed')), "claimed_at" timestamptz, "media_id" text, "error" jsonb, "created_at" timestamptz not null default CURRENT_TIMESTAMP, "expires_at" timestamptz not null, constraint "media_uploads_pkey" primary key ("id"));
alter table "media_uploads" add constraint "media_uploads_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
alter table "media_uploads" add constraint "media_uploads_profile_id_foreign" foreign key ("profile_id") references "profiles" ("id") on delete CASCADE;
alter table "media_uploads" add constraint "media_uploads_media_id_unique" unique ("media_id");
create index "media_uploads_expires_at_index" on "media_uploads" ("expires_at");
create index "media_uploads_profile_id_index" on "media_uploads" ("profile_id");

-- migration: 202611270130_accounts_profile_deletion
alter table "profiles" add column "deleted_at" timestamptz;
create table "account_revocations" ("account_id" text, "owner_id" text not null, "credentials_ciphertext" text not null, "attempts" integer not null default '0', "due_at" timestamptz not null default CURRENT_TIMESTAMP, "locked_until" timestamptz, "last_error" text, "created_at" timestamptz not null default CURRENT_TIMESTAMP, constraint "account_revocations_pkey" primary key ("account_id"));
alter table "account_revocations" add constraint "account_revocations_owner_id_foreign" foreign key ("owner_id") references "owners" ("id") on delete CASCADE;
create index "account_revocations_due_at_index" on "account_revocations" ("due_at");

-- migration: 202611270500_publishing_queue_slot_accounts
alter table "queue_slots" add column "account_ids" text[];
alter table "queue_slots" drop constraint "queue_slots_profile_id_day_of_week_time_timezone_unique";
CREATE UNIQUE INDEX queue_slots_occurrence ON queue_slots (profile_id, day_of_week, time, timezone, COALESCE(account_ids, '{}'));

-- migration: 202611270710_hooks_deliveries_fillfactor
ALTER TABLE deliveries SET (fillfactor = 60);

-- migration: 202611271000_publishing_lease_token
ALTER TABLE post_targets ADD COLUMN lease_token uuid;

-- migration: 202611271005_publishing_post_targets_hot
ALTER TABLE post_targets SET (fillfactor = 60);
