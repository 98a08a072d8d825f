import type { components } from '../../../generated/api.js';
import type { TaskRow } from './rows.js';

export type AiTask = components['schemas']['AiTask'];
export type AiTaskStatus = components['schemas']['AiTaskStatus'];
export type AiTaskError = components['schemas']['AiTaskError'];
export type AiTaskResult = components['schemas']['AiTaskResult'];
export type AiTaskUsage = components['schemas']['AiTaskUsage'];

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
