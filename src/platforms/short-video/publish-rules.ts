import type { PublishContent, RuleViolation } from '../capabilities/publishing.js';

/**
 * The Content Posting API's limits (media transfer guide and the Direct Post reference): a post is one video or
 * up to 35 photos, never text alone. Lengths count UTF-16 code units, as JavaScript's `length` does.
 */
export const VIDEO_TITLE_LIMIT = 2200;
export const PHOTO_TITLE_LIMIT = 90;
export const PHOTO_DESCRIPTION_LIMIT = 4000;
export const PHOTO_COUNT_LIMIT = 35;
export const VIDEO_MAX_BYTES = 4 * 1024 ** 3;
export const PHOTO_MAX_BYTES = 20 * 1024 * 1024;
const VIDEO_TYPES = new Set(['video/mp4', 'video/webm', 'video/quicktime']);
/** PNG is not taken for photo posts, only JPEG and WebP. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/webp']);
const VIDEO_MIN_SIDE = 360;
const VIDEO_MAX_SIDE = 4096;
/** "Maximum 1080p": the short side at most 1080, the long one at most 1920. */
const PHOTO_MAX_SHORT_SIDE = 1080;
const PHOTO_MAX_LONG_SIDE = 1920;
/** The longest any creator may post; each creator's own cap (`max_video_post_duration_sec`) is checked when publishing. */
const VIDEO_MAX_MS = 60 * 60 * 1000;
/** Frames per second the platform takes (its processing fails `frame_rate_check_failed` outside them). */
const FRAME_RATE = { min: 23, max: 60 };

export interface ShortVideoOptions {
  privacyLevel?: string;
  title?: string;
  disableComment?: boolean;
  disableDuet?: boolean;
  disableStitch?: boolean;
  coverTimestampMs?: number;
}

const OPTIONS = 'platformOptions/short_video';

export function validateShortVideo(content: PublishContent): RuleViolation[] {
  const options = content.options as ShortVideoOptions;
  const violations: RuleViolation[] = [];
  const add = (path: string, code: RuleViolation['code'], message: string, limit?: number) =>
    violations.push({ path, code, message, ...(limit === undefined ? {} : { limit }) });
  if (!options.privacyLevel)
    add(
      `${OPTIONS}/privacyLevel`,
      'required_option',
      'short_video posts need platformOptions.short_video.privacyLevel (who can see the post).',
    );
  if (content.media.length === 0) {
    add('mediaIds', 'text_or_media_required', 'short_video posts need a video or photos; text alone cannot be posted.');
    return violations;
  }
  const videos = content.media.filter((media) => media.kind === 'video');
  if (videos.length > 0) {
    if (content.media.length > 1)
      add('mediaIds', 'media_count', `The post has ${content.media.length} media; a short_video video post is one video alone.`, 1);
    const title = options.title ?? content.text ?? '';
    if (title.length > VIDEO_TITLE_LIMIT) {
      add(
        options.title === undefined ? 'text' : `${OPTIONS}/title`,
        'max_length',
        `The caption has ${title.length} characters; short_video allows ${VIDEO_TITLE_LIMIT}.`,
        VIDEO_TITLE_LIMIT,
      );
    }
  } else {
    if (content.media.length > PHOTO_COUNT_LIMIT)
      add(
        'mediaIds',
        'media_count',
        `The post has ${content.media.length} photos; short_video takes up to ${PHOTO_COUNT_LIMIT}.`,
        PHOTO_COUNT_LIMIT,
      );
    if (options.title !== undefined && options.title.length > PHOTO_TITLE_LIMIT) {
      add(
        `${OPTIONS}/title`,
        'max_length',
        `The title has ${options.title.length} characters; short_video photo posts allow ${PHOTO_TITLE_LIMIT}.`,
        PHOTO_TITLE_LIMIT,
      );
    }
    if (content.text && content.text.length > PHOTO_DESCRIPTION_LIMIT) {
      add(
        'text',
        'max_length',
        `The text has ${content.text.length} characters; a short_video photo post's description allows ${PHOTO_DESCRIPTION_LIMIT}.`,
        PHOTO_DESCRIPTION_LIMIT,
      );
    }
    for (const option of ['disableDuet', 'disableStitch', 'coverTimestampMs'] as const) {
      if (options[option] !== undefined) add(`${OPTIONS}/${option}`, 'option_not_allowed', `${option} applies to videos only.`);
    }
  }
  content.media.forEach((media, index) => {
    const path = `mediaIds/${index}`;
    if (media.kind === 'video') {
      if (!VIDEO_TYPES.has(media.mimeType))
        return add(path, 'media_type', `short_video takes MP4, WebM or MOV videos, not ${media.mimeType}.`);
      if (media.size > VIDEO_MAX_BYTES)
        return add(path, 'media_size', `The video has ${media.size} bytes; short_video takes up to 4 GB.`, VIDEO_MAX_BYTES);
      const sides = [media.width, media.height].filter((side): side is number => side !== null);
      if (sides.some((side) => side < VIDEO_MIN_SIDE || side > VIDEO_MAX_SIDE)) {
        return add(
          path,
          'media_size',
          `The video is ${media.width}×${media.height}; short_video needs ${VIDEO_MIN_SIDE} to ${VIDEO_MAX_SIDE} pixels on each side.`,
          VIDEO_MIN_SIDE,
        );
      }
      if (media.durationMs !== null && media.durationMs > VIDEO_MAX_MS) {
        return add(
          path,
          'media_size',
          `The video lasts ${Math.round(media.durationMs / 1000)} s; short_video takes up to 60 minutes (less for most creators).`,
          VIDEO_MAX_MS,
        );
      }
      if (media.frameRate !== null && (media.frameRate < FRAME_RATE.min || media.frameRate > FRAME_RATE.max)) {
        return add(
          path,
          'media_format',
          `The video has ${media.frameRate} frames a second; short_video takes ${FRAME_RATE.min} to ${FRAME_RATE.max}.`,
          media.frameRate < FRAME_RATE.min ? FRAME_RATE.min : FRAME_RATE.max,
        );
      }
      if (options.coverTimestampMs !== undefined && media.durationMs !== null && options.coverTimestampMs > media.durationMs) {
        add(
          `${OPTIONS}/coverTimestampMs`,
          'option_not_allowed',
          `The cover frame at ${options.coverTimestampMs} ms is past the video's end (${media.durationMs} ms).`,
        );
      }
      return;
    }
    if (media.kind !== 'image' || !PHOTO_TYPES.has(media.mimeType)) {
      return add(
        path,
        'media_type',
        `short_video takes a video, or JPEG or WebP photos; not ${media.mimeType}${media.mimeType === 'image/png' ? ' (PNG is not taken for photo posts)' : ''}.`,
      );
    }
    if (media.size > PHOTO_MAX_BYTES)
      return add(path, 'media_size', `The photo has ${media.size} bytes; short_video takes up to 20 MB per photo.`, PHOTO_MAX_BYTES);
    const long = Math.max(media.width ?? 0, media.height ?? 0);
    const short = Math.min(media.width ?? 0, media.height ?? 0);
    if (long > PHOTO_MAX_LONG_SIDE || short > PHOTO_MAX_SHORT_SIDE) {
      add(
        path,
        'media_size',
        `The photo is ${media.width}×${media.height}; short_video takes photos up to 1080p (1920×1080).`,
        PHOTO_MAX_LONG_SIDE,
      );
    }
  });
  return violations;
}
