import type { AiTask, AiTaskError, AiTaskResult, AiTaskStatus, AiTaskUsage } from './present.js';
import type { Plan } from './parameters.js';
import type { AiKind } from './settings.js';

// The rows of the ai area's tables, as Knex reads them (columns in camelCase).

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
