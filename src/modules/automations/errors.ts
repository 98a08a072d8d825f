import { UnprocessableError, ValidationFailedError } from '../../lib/errors.js';

/** 422 `automation_limit_reached`. */
export class AutomationLimitReachedError extends UnprocessableError {
  constructor(max: number) {
    super('automation_limit_reached', 'Automation limit reached', `A profile may have at most ${max} automations; delete one first.`);
  }
}

/** A pattern refused, where it is in `trigger.keywords`, and why. */
export interface UnsafePattern {
  index: number;
  pattern: string;
  why: string;
}

/** 422 `regex_unsafe`: patterns that could backtrack catastrophically, or that could not be proven safe in time. */
export class RegexUnsafeError extends UnprocessableError {
  constructor(refused: UnsafePattern[]) {
    super(
      'regex_unsafe',
      'Unsafe regular expression',
      refused.map(({ pattern, why }) => `The pattern ${JSON.stringify(pattern)} is refused: ${why}`).join(' '),
      refused.map(({ index, why }) => ({ path: `body/trigger/keywords/${index}`, message: why, code: 'regex_unsafe' })),
    );
  }
}

/** 400 `validation_failed` for a rule the schema cannot say (an action that does not fit the trigger). */
export function invalidMember(path: string, message: string): ValidationFailedError {
  return new ValidationFailedError([{ path, message, code: 'invalid' }]);
}
