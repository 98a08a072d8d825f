import type { components } from '../../../generated/api.js';
import type { MatchType } from './matcher.js';

export type TriggerType = components['schemas']['AutomationTrigger']['type'];
export type AutomationAction = components['schemas']['AutomationAction'];
export type ActionType = AutomationAction['type'];

/** A row of `automations`, as knex reads it (camelCase). */
export interface AutomationRecord {
  id: string;
  ownerId: string;
  profileId: string;
  name: string;
  accountIds: string[];
  triggerType: TriggerType;
  keywords: string[];
  matchType: MatchType;
  caseSensitive: boolean;
  postIds: string[];
  actions: AutomationAction[];
  active: boolean;
  priority: number;
  stopOnMatch: boolean;
  cooldownSeconds: number;
  oncePerPerson: boolean;
  triggeredCount: number;
  succeededCount: number;
  failedCount: number;
  lastTriggeredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an action came to; `error` is null when it succeeded. */
export interface ActionOutcome {
  status: 'succeeded' | 'failed' | 'skipped';
  error: { code: string; message: string; platformError: string | null } | null;
  finishedAt: string;
}

/** An action of a run, its text rendered for the run when the run began. */
export type RunAction = { type: ActionType; text?: string; tag?: string };

/** A row of `automation_runs`. */
export interface RunRecord {
  id: string;
  automationId: string;
  ownerId: string;
  profileId: string;
  accountId: string;
  platform: string;
  triggerType: TriggerType;
  sourceKind: 'message' | 'comment';
  sourceId: string;
  conversationId: string | null;
  platformPostId: string | null;
  personId: string;
  personName: string | null;
  text: string;
  matchedKeyword: string | null;
  actions: RunAction[];
  outcomes: ActionOutcome[];
  status: 'running' | 'succeeded' | 'failed';
  attempts: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A new row of `automation_runs`, as inserted: the other columns left to their defaults (or the lease's). */
export type NewRunRow = Omit<RunRecord, 'outcomes' | 'attempts' | 'createdAt' | 'finishedAt'>;

/** Which trigger each action needs; `add_tag` fits both. */
export const ACTION_TRIGGERS: Record<ActionType, readonly TriggerType[]> = {
  reply_message: ['message_received'],
  reply_comment: ['comment_received'],
  send_private_reply: ['comment_received'],
  hide_comment: ['comment_received'],
  add_tag: ['message_received', 'comment_received'],
};
