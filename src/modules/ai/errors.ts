import { ApiError, type FieldError, UnprocessableError } from '../../lib/errors.js';

/**
 * 422 `ai_model_unavailable`: the model is unknown, of another kind, not offered by its provider now, or does not
 * take a value of the request; `errors` name the member and the values it takes.
 */
export class AiModelUnavailableError extends UnprocessableError {
  constructor(detail: string, errors?: FieldError[]) {
    super('ai_model_unavailable', 'The AI model is not available', detail, errors);
  }
}

/** 409 `ai_task_finished`: the task succeeded or failed already; there is nothing to cancel. */
export class AiTaskFinishedError extends ApiError {
  constructor(status: string) {
    super(
      409,
      'ai_task_finished',
      'The AI task has finished',
      `The task has ${status} already; only a queued or running task can be cancelled.`,
    );
  }
}

/** 422 `media_not_found`: the reference image (`imageMediaId`) is not one of the owner's media. */
export class ReferenceMediaNotFoundError extends UnprocessableError {
  constructor(id: string) {
    super('media_not_found', 'The media was not found', `No media ${id}.`, [
      { path: 'body/imageMediaId', code: 'media_not_found', message: `No media ${id}.` },
    ]);
  }
}
