import { closed, type ControlBodies, integer, oneOf, strictControl, text } from '../control-schema.js';
import { DEMO_THREADS_USER } from './demo.js';

const userId = text(`the person (${DEMO_THREADS_USER.id}, the demo account, or one made with /users)`);
const USER = DEMO_THREADS_USER.id;

/** The bodies of the threads platform's people's controls. */
export const SOCIAL_THREADS_CONTROLS: ControlBodies = {
  'POST /_sandbox/social_threads/users': closed({ username: text('their handle'), name: text('their name') }, [], {
    username: 'acme.roastery',
    name: 'Acme Roastery',
  }),
  'POST /_sandbox/social_threads/remove-app': closed({ userId }, ['userId'], { userId: USER }),
  'POST /_sandbox/social_threads/settings': closed(
    {
      longLivedTtlSeconds: integer('how long a long-lived token lives', 1),
      minRefreshAgeSeconds: integer('how old a token must be to be refreshed'),
    },
    [],
    { longLivedTtlSeconds: 120, minRefreshAgeSeconds: 0 },
  ),
  'POST /_sandbox/social_threads/followers': closed({ userId, followers: integer('their followers now') }, ['userId', 'followers'], {
    userId: USER,
    followers: 1250,
  }),
  'POST /_sandbox/social_threads/threads': closed({ userId, text: { type: 'string' } }, ['userId'], {
    userId: USER,
    text: 'Posted in the app: the roastery is open on Sunday.',
  }),
  'POST /_sandbox/social_threads/expire-containers': closed({ userId }, ['userId'], { userId: USER }),
  'POST /_sandbox/social_threads/faults': closed(
    {
      userId,
      faults: {
        type: 'array',
        minItems: 1,
        items: closed(
          {
            kind: oneOf(['rate_limited', 'processing_error', 'error_after_publish', 'hang_after_publish']),
            errorMessage: text("processing_error's message"),
          },
          ['kind'],
          { kind: 'rate_limited' },
        ),
      },
    },
    ['userId', 'faults'],
    { userId: USER, faults: [{ kind: 'rate_limited' }] },
  ),
  'POST /_sandbox/social_threads/publishing': closed(
    {
      videoProcessingMs: integer('how long a video container stays IN_PROGRESS'),
      quotaTotal: integer('posts a person may publish in 24 hours'),
    },
    [],
    { videoProcessingMs: 200, quotaTotal: 250 },
  ),
  'POST /_sandbox/social_threads/webhooks': closed(
    {
      callbackUrl: { type: 'string', pattern: '^https?://', description: "the app's webhook callback (checked with the handshake first)" },
      verifyToken: text('the verify token entered with it'),
    },
    ['callbackUrl', 'verifyToken'],
    { callbackUrl: 'http://localhost:8080/webhooks/social_threads', verifyToken: '…' },
  ),
  'POST /_sandbox/social_threads/replies': closed(
    {
      replyToId: text('the thread or reply answered'),
      username: text('who replies (lena.fischer by default)'),
      text: { type: 'string' },
      duplicate: { type: 'boolean', description: 'the webhook goes out twice' },
    },
    ['replyToId'],
    { replyToId: '18000000000000001', username: 'lena.fischer', text: 'Is the oat latte back?' },
  ),
  ...strictControl('social_threads'),
};
