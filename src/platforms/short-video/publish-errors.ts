import { PlatformError } from '../errors.js';
import { type FailureCode, PublishRefused } from '../capabilities/publishing.js';

/**
 * What the Content Posting API's refusals mean for a post. Two places carry them: the `error.code` of an init
 * (HTTP 403 and 400, https://developers.tiktok.com/doc/content-posting-api-reference-direct-post) and the
 * `fail_reason` of a FAILED status (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status).
 * Everything not listed here goes through the open API's common rules (`classifyApi` in client.ts).
 */
const INIT_REFUSALS: Record<string, { failure: FailureCode; hint: string }> = {
  // The creator's daily cap (about 15 posts a day, shared by every app), not a per-minute limit: retrying in minutes cannot help.
  spam_risk_too_many_posts: { failure: 'rate_limited', hint: 'The creator reached the daily number of posts; try again tomorrow.' },
  spam_risk_too_many_pending_share: {
    failure: 'rate_limited',
    hint: 'Too many posts are still pending for this creator; try again later.',
  },
  reached_active_user_cap: {
    failure: 'rate_limited',
    hint: 'The app reached its daily number of creators allowed to post; try again tomorrow.',
  },
  spam_risk_user_banned_from_posting: { failure: 'policy_violation', hint: 'The creator is banned from posting.' },
  unaudited_client_can_only_post_to_private_accounts: {
    failure: 'permission_denied',
    hint: 'The app is not audited yet, so it may post only with privacyLevel SELF_ONLY.',
  },
  privacy_level_option_mismatch: { failure: 'permission_denied', hint: "The privacy level is not one of the creator's options." },
  // Photos are pulled from the service's PUBLIC_URL: its domain must be verified for the app.
  url_ownership_unverified: {
    failure: 'permission_denied',
    hint: "The platform pulls photos from PUBLIC_URL, whose domain is not verified for the app: verify it in the app's developer portal (URL properties).",
  },
};

const FAIL_REASONS: Record<string, { failure: FailureCode; hint: string }> = {
  file_format_check_failed: { failure: 'media_invalid', hint: 'The file format is not supported (MP4, WebM or MOV; JPEG or WebP photos).' },
  duration_check_failed: { failure: 'media_invalid', hint: 'The video is longer than the creator may post.' },
  frame_rate_check_failed: { failure: 'media_invalid', hint: 'The frame rate must be 23 to 60 frames per second.' },
  picture_size_check_failed: { failure: 'media_invalid', hint: 'The picture size is outside what the platform takes.' },
  // The platform's own processing failed; its documentation calls it retryable.
  internal: { failure: 'media_processing_failed', hint: 'The platform failed to process the media; retry later.' },
  video_pull_failed: { failure: 'media_processing_failed', hint: 'The platform could not download the video.' },
  photo_pull_failed: {
    failure: 'media_processing_failed',
    hint: 'The platform could not download the photos (they must be reachable at their public URL).',
  },
  publish_cancelled: { failure: 'unknown', hint: 'The post was cancelled on the platform.' },
  spam_risk_too_many_posts: { failure: 'rate_limited', hint: 'The creator reached the daily number of posts; try again tomorrow.' },
  spam_risk_user_banned_from_posting: { failure: 'policy_violation', hint: 'The creator is banned from posting.' },
  spam_risk_text: { failure: 'policy_violation', hint: 'The caption was judged as spam; change it.' },
  spam_risk: { failure: 'policy_violation', hint: 'The post was judged as spam.' },
};

/** An init's refusal that is about this post or this creator rather than the token; null when the common rules apply. */
export function initRefusal(code: string, message: string, status: number): PublishRefused | null {
  const known = INIT_REFUSALS[code];
  if (!known) return null;
  const kind = known.failure === 'rate_limited' ? 'rate_limited' : 'invalid_request';
  return new PublishRefused(kind, `${known.hint} (${message || code})`, known.failure, { platformCode: code, status });
}

/** A FAILED status: the reason as a refusal (the user removing the app mid-way is a lost authorisation). */
export function failReasonRefusal(reason: string | undefined): PlatformError {
  const code = reason || 'unknown';
  if (code === 'auth_removed')
    return new PlatformError('permission_revoked', 'The creator removed the app while the post was processing.', { platformCode: code });
  const known = FAIL_REASONS[code];
  if (!known) return new PublishRefused('invalid_request', `The platform failed the post (${code}).`, 'unknown', { platformCode: code });
  const kind = known.failure === 'rate_limited' ? 'rate_limited' : 'invalid_request';
  return new PublishRefused(kind, `${known.hint} (${code})`, known.failure, { platformCode: code });
}
