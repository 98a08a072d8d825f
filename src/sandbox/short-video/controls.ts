import { closed, type ControlBodies, integer, oneOf, strictControl, tagged, text } from '../control-schema.js';
import { DEMO_USER } from './demo.js';

const openId = text(`the creator's open id (${DEMO_USER.openId}, the demo creator, or one made with /users)`);
const webhookUrl = { type: 'string', pattern: '^https?://', description: "the app's callback URL (else the one in /settings)" };
const PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];

/** The bodies of the short-video platform's people's controls. */
export const SHORT_VIDEO_CONTROLS: ControlBodies = {
  'POST /_sandbox/short_video/users': closed(
    {
      displayName: text('their name'),
      username: text('their handle'),
      bio: { type: 'string' },
      followers: integer('their followers'),
      following: integer('whom they follow'),
      videos: integer('their videos'),
      verified: { type: 'boolean' },
    },
    [],
    { displayName: 'Acme Coffee', username: 'acme.coffee' },
  ),
  'POST /_sandbox/short_video/remove-app': closed(
    { openId, webhookUrl, reason: integer('the authorization.removed reason (1: from within TikTok)') },
    ['openId'],
    { openId: DEMO_USER.openId },
  ),
  'POST /_sandbox/short_video/events': closed(
    { openId, webhookUrl, event: text('the event, e.g. post.publish.complete'), content: { type: 'object' } },
    ['openId', 'event'],
    { openId: DEMO_USER.openId, event: 'post.publish.complete', content: { publish_id: 'v_pub_…' } },
  ),
  'POST /_sandbox/short_video/settings': closed(
    {
      accessTokenTtlSeconds: integer('how long an access token lives', 1),
      refreshTokenTtlSeconds: integer('how long a refresh token lives', 1),
      webhookUrl,
      rateLimited: { type: 'boolean' },
      processingMs: integer('how long a post takes to process'),
      unaudited: { type: 'boolean', description: 'an app TikTok has not audited: its posts are private' },
    },
    [],
    { accessTokenTtlSeconds: 60, processingMs: 200 },
  ),
  'POST /_sandbox/short_video/verified-domains': closed(
    { domain: { type: 'string', pattern: '^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$', description: 'a domain photos may be pulled from' } },
    ['domain'],
    { domain: 'media.acme-coffee.example' },
  ),
  'POST /_sandbox/short_video/creator': closed(
    {
      openId,
      privacyLevelOptions: { type: 'array', items: oneOf(PRIVACY) },
      commentDisabled: { type: 'boolean' },
      duetDisabled: { type: 'boolean' },
      stitchDisabled: { type: 'boolean' },
      maxVideoPostDurationSec: integer('their longest video', 1),
    },
    ['openId'],
    { openId: DEMO_USER.openId, commentDisabled: true, maxVideoPostDurationSec: 60 },
  ),
  'POST /_sandbox/short_video/faults': closed(
    {
      openId,
      faults: {
        type: 'array',
        minItems: 1,
        items: tagged('kind', [
          closed({ kind: { const: 'init_refused' }, code: text("TikTok's error code"), message: text('its message') }, ['kind', 'code'], {
            kind: 'init_refused',
            code: 'spam_risk_too_many_posts',
          }),
          closed({ kind: oneOf(['server_error', 'hang_after_init', 'hang_after_upload', 'review']) }, ['kind'], { kind: 'server_error' }),
          closed({ kind: { const: 'fail' }, reason: text('the fail_reason') }, ['kind', 'reason'], {
            kind: 'fail',
            reason: 'file_format_check_failed',
          }),
        ]),
      },
    },
    ['openId', 'faults'],
    { openId: DEMO_USER.openId, faults: [{ kind: 'review' }] },
  ),
  'POST /_sandbox/short_video/minute-passed': closed({ openId }, ['openId'], { openId: DEMO_USER.openId }),
  'POST /_sandbox/short_video/videos': closed({ openId, title: { type: 'string' }, privacyLevel: oneOf(PRIVACY) }, ['openId'], {
    openId: DEMO_USER.openId,
    title: 'Posted in the app',
  }),
  'POST /_sandbox/short_video/review': closed({ postId: text('the post held for review'), webhookUrl }, ['postId'], { postId: '7311…' }),
  'POST /_sandbox/short_video/followers': closed({ openId, followers: integer('their followers now') }, ['openId', 'followers'], {
    openId: DEMO_USER.openId,
    followers: 5400,
  }),
  ...strictControl('short_video'),
};
