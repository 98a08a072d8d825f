import type { components } from '../../../generated/api.js';
import type { AiKind } from './settings.js';
import type { Plan } from './parameters.js';

export type AiTask = components['schemas']['AiTask'];
export type AiTaskStatus = components['schemas']['AiTaskStatus'];
export type AiTaskError = components['schemas']['AiTaskError'];
export type AiTaskResult = components['schemas']['AiTaskResult'];
export type AiTaskUsage = components['schemas']['AiTaskUsage'];

/** A row of `ai_tasks`. */
export interface TaskRow {
  id: string;
  ownerId: string;
  profileId: string | null;
  kind: AiKind;
  status: AiTaskStatus;
  provider: string;
  model: string;
  input: AiTask['input'] & { prompt: string };
  plan: Plan;
  providerJobId: string | null;
  progress: number | null;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  deadlineAt: Date;
  result: AiTaskResult | null;
  usage: AiTaskUsage | null;
  error: AiTaskError | null;
  createdAt: Date;
  completedAt: Date | null;
}

export const FINISHED: readonly AiTaskStatus[] = ['succeeded', 'failed', 'cancelled'];

export function presentTask(row: TaskRow): AiTask {
  return {
    taskId: row.id,
    kind: row.kind,
    status: row.status,
    model: row.model,
    provider: row.provider,
    profileId: row.profileId,
    input: row.input,
    progress: row.progress,
    usage: row.usage,
    result: row.result,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
