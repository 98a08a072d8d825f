import { type PlatformError } from '../errors.js';
import { classifyMetaError } from '../meta/graph.js';
import { type PublishContent, PublishRefused, type RuleViolation } from '../capabilities/publishing.js';

/**
 * A page post's limits: the message (63,206 characters), photos as the Page photos edge takes them (JPEG, PNG,
 * GIF, BMP, TIFF; under 4 MB each) and a video fetched from its URL by the simple, non-resumable upload (up to
 * 1 GB and 20 minutes; longer needs the resumable upload, which we do not use). Photos and a video are never mixed,
 * and a link preview is not shown next to media.
 */
export const MESSAGE_LIMIT = 63_206;
export const PHOTO_LIMIT = 10;
export const PHOTO_MAX_BYTES = 4 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 1024 * 1024 * 1024;
export const VIDEO_MAX_MS = 20 * 60 * 1000;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);

export interface SocialNetworkOptions {
  link?: string;
  firstComment?: string;
}

export function validatePagePost(content: PublishContent): RuleViolation[] {
  const options = content.options as SocialNetworkOptions;
  const violations: RuleViolation[] = [];
  const videos = content.media.filter((media) => media.kind === 'video').length;
  const photos = content.media.length - videos;
  if (!content.text && content.media.length === 0 && !options.link) {
    violations.push({
      path: 'text',
      code: 'text_or_media_required',
      message: 'A social_network post needs text, media or platformOptions.social_network.link.',
    });
  }
  if (content.text && content.text.length > MESSAGE_LIMIT) {
    violations.push({
      path: 'text',
      code: 'max_length',
      limit: MESSAGE_LIMIT,
      message: `The text has ${content.text.length} characters; a social_network post allows ${MESSAGE_LIMIT}.`,
    });
  }
  if (options.link && content.media.length > 0) {
    violations.push({
      path: 'platformOptions/social_network/link',
      code: 'option_not_allowed',
      message: 'A social_network post shows either a link preview or media, not both: remove the link or the media.',
    });
  }
  if (videos > 0 && photos > 0) {
    violations.push({ path: 'mediaIds', code: 'media_count', message: 'A social_network post has either photos or one video, not both.' });
  } else if (videos > 1) {
    violations.push({
      path: 'mediaIds',
      code: 'media_count',
      limit: 1,
      message: `The post has ${videos} videos; a social_network post takes one.`,
    });
  } else if (photos > PHOTO_LIMIT) {
    violations.push({
      path: 'mediaIds',
      code: 'media_count',
      limit: PHOTO_LIMIT,
      message: `The post has ${photos} photos; a social_network post takes up to ${PHOTO_LIMIT}.`,
    });
  }
  content.media.forEach((media, index) => {
    const path = `mediaIds/${index}`;
    if (media.kind === 'video') {
      if (!VIDEO_TYPES.has(media.mimeType)) {
        violations.push({ path, code: 'media_type', message: `social_network videos are MP4 or MOV, not ${media.mimeType}.` });
      } else if (media.size > VIDEO_MAX_BYTES) {
        violations.push({
          path,
          code: 'media_size',
          limit: VIDEO_MAX_BYTES,
          message: `The video has ${media.size} bytes; a social_network video sent by URL may have up to 1 GB.`,
        });
      } else if ((media.durationMs ?? 0) > VIDEO_MAX_MS) {
        violations.push({
          path,
          code: 'media_size',
          limit: VIDEO_MAX_MS,
          message: `The video lasts ${Math.ceil(media.durationMs! / 1000)} s; a social_network video sent by URL may last up to 20 minutes.`,
        });
      }
    } else if (!PHOTO_TYPES.has(media.mimeType)) {
      violations.push({
        path,
        code: 'media_type',
        message: `social_network photos are JPEG, PNG, GIF, BMP or TIFF, not ${media.mimeType}.`,
      });
    } else if (media.size > PHOTO_MAX_BYTES) {
      violations.push({
        path,
        code: 'media_size',
        limit: PHOTO_MAX_BYTES,
        message: `The photo has ${media.size} bytes; a social_network photo may have up to 4 MB.`,
      });
    }
  });
  return violations;
}

/** Codes the Graph gives for a photo or video it could not fetch or read. */
const MEDIA_CODES = new Set([324, 352, 389, 6000, 6001]);

/**
 * The Graph's refusals of a page post, in the user's terms; everything else by the shared Meta rules (190 expired
 * token, 10/200-299 permission, throttling with the usage headers' time).
 */
export function classifyPageError(status: number, body: unknown, headers?: Headers): PlatformError {
  const generic = classifyMetaError(status, body, headers);
  const error = (body as { error?: { code?: number; error_subcode?: number } } | null)?.error ?? {};
  const details = generic.details;
  if (error.code === 506) return new PublishRefused('invalid_request', generic.message, 'duplicate_content', details);
  if (error.code === 368) return new PublishRefused('invalid_request', generic.message, 'policy_violation', details);
  if (error.code === 1609005 || error.error_subcode === 1609005) {
    return new PublishRefused('invalid_request', generic.message, 'link_unreachable', { ...details, platformCode: 1609005 });
  }
  if (error.code !== undefined && MEDIA_CODES.has(error.code))
    return new PublishRefused('invalid_request', generic.message, 'media_invalid', details);
  return generic;
}
