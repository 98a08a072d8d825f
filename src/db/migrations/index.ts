import type { Knex } from 'knex';
import * as foundation from './0001_foundation.js';
import * as eventsAndHooks from './0002_events_and_hooks.js';
import * as accountsAndMessages from './0003_accounts_and_messages.js';
import * as qrchatSessions from './0004_qrchat_sessions.js';
import * as oauthConnections from './0005_oauth_connections.js';
import * as adAccounts from './0006_ad_accounts.js';
import * as conversationState from './0007_conversation_state.js';
import * as platformUserIds from './0008_platform_user_ids.js';
import * as media from './0010_media.js';
import * as publishing from './0011_publishing.js';
import * as platformWrites from './202611240100_platform_writes.js';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** In order; a new migration is appended, never inserted. */
export const migrations: Migration[] = [
  { name: '0001_foundation', ...foundation },
  { name: '0002_events_and_hooks', ...eventsAndHooks },
  { name: '0003_accounts_and_messages', ...accountsAndMessages },
  { name: '0005_oauth_connections', ...oauthConnections },
  { name: '0006_ad_accounts', ...adAccounts },
  { name: '0007_conversation_state', ...conversationState },
  { name: '0008_platform_user_ids', ...platformUserIds },
  // Numbered 0004 (reserved for it) but appended: databases that ran the later ones get it too, in this order.
  { name: '0004_qrchat_sessions', ...qrchatSessions },
  { name: '0010_media', ...media },
  { name: '0011_publishing', ...publishing },
  { name: '202611240100_platform_writes', ...platformWrites },
];
