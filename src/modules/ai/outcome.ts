import { retryAfterHeader } from '../../platforms/retry-after.js';
import type { AiSettings } from './settings.js';
import type { AiTaskError, AiTaskResult, AiTaskUsage } from './present.js';
import type { TaskRow } from './rows.js';
import { openaiLibrary } from './registry.js';
import { ResultUnusableError } from './results.js';

/** What one turn of a task came to; the worker records it. */
export type Outcome =
  | { kind: 'succeeded'; result: AiTaskResult; usage: AiTaskUsage }
  | { kind: 'failed'; error: AiTaskError }
  | { kind: 'retry'; at: Date }
  | { kind: 'poll'; at: Date; progress: number | null };

export function failed(code: AiTaskError['code'], message: string): Outcome {
  return { kind: 'failed', error: { code, message: message.slice(0, 2000) } };
}

/** The provider's refusal codes for content (OpenAI: `content_policy_violation`, images: `moderation_blocked`). */
const CONTENT_POLICY_CODES = new Set(['content_policy_violation', 'moderation_blocked', 'content_filter']);

export function isContentPolicy(code: string | null | undefined): boolean {
  return Boolean(code && (CONTENT_POLICY_CODES.has(code) || /moderation|policy|safety/.test(code)));
}

/**
 * A passing failure (a rate limit, a provider failing or unreachable) is tried again on the schedule, no sooner
 * than the provider's `Retry-After`; when the schedule is spent, or the retry would come after the deadline,
 * the task fails with `code`.
 */
function retryOr(settings: AiSettings, task: TaskRow, code: AiTaskError['code'], message: string, retryAfter?: Date): Outcome {
  const step = settings.retryScheduleSeconds[task.attempts];
  if (step === undefined) return failed(code, `${message} (tried ${task.attempts + 1} times)`);
  const at = new Date(Math.max(Date.now() + step * 1000, retryAfter?.getTime() ?? 0));
  if (at.getTime() >= new Date(task.deadlineAt).getTime())
    return failed(code, `${message}; no time was left to try again before the deadline`);
  return { kind: 'retry', at };
}

/** What a provider's failure means for the task. Anything unknown is rethrown (a bug, logged by the worker). */
export async function outcomeOf(error: unknown, task: TaskRow, settings: AiSettings): Promise<Outcome> {
  if (error instanceof ResultUnusableError) return failed('provider_error', error.message);
  const OpenAI = await openaiLibrary();
  const pastDeadline = Date.now() >= new Date(task.deadlineAt).getTime();
  if (error instanceof OpenAI.APIConnectionTimeoutError || (error instanceof Error && error.name === 'TimeoutError')) {
    if (pastDeadline) return failed('timeout', `The model did not finish within the ${task.kind} deadline.`);
    return retryOr(settings, task, 'timeout', 'The provider did not answer in time');
  }
  if (error instanceof OpenAI.APIConnectionError)
    return retryOr(settings, task, 'provider_error', `The provider could not be reached: ${error.message}`);
  if (!(error instanceof OpenAI.APIError)) throw error;
  const message = (error.error as { message?: string } | undefined)?.message ?? error.message;
  if (error.status === 429) {
    return retryOr(
      settings,
      task,
      'provider_rate_limited',
      `The provider's rate limit or quota was reached: ${message}`,
      retryAfterHeader(error.headers),
    );
  }
  if ((error.status ?? 500) >= 500)
    return retryOr(
      settings,
      task,
      'provider_error',
      `The provider failed (HTTP ${error.status}): ${message}`,
      retryAfterHeader(error.headers),
    );
  if (isContentPolicy(error.code)) return failed('content_policy', message);
  if (error.status === 404 && error.code === 'model_not_found')
    return failed('provider_error', `The provider no longer offers ${task.model}: ${message}`);
  if (error.status === 404) return failed('provider_error', `The provider no longer has the result: ${message}`);
  if (error.status === 401 || error.status === 403)
    return failed('provider_error', `The provider refused this instance's credentials: ${message}`);
  return failed('invalid_input', message);
}
