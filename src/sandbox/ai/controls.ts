import { closed, type ControlBodies, integer, NO_BODY, oneOf } from '../control-schema.js';
import { ENDPOINTS, FAULTS } from './faults.js';

/** The bodies of the AI provider's controls. */
export const AI_CONTROLS: ControlBodies = {
  'POST /_sandbox/ai/faults': closed(
    {
      fault: oneOf(FAULTS, 'what the next requests meet'),
      endpoint: oneOf(ENDPOINTS, 'which requests (any by default)'),
      times: integer('how many requests (1 by default)', 1),
      retryAfterSeconds: integer("rate_limit's Retry-After (1 by default)"),
    },
    ['fault'],
    { fault: 'rate_limit', endpoint: 'chat', times: 2, retryAfterSeconds: 1 },
  ),
  'POST /_sandbox/ai/reset': NO_BODY,
  'POST /_sandbox/ai/configure': closed({ videoStepMs: integer('how long each step of a video job takes, in ms') }, [], {
    videoStepMs: 200,
  }),
};
