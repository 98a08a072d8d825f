import type { PublishContent, RuleViolation } from '../capabilities/publishing.js';

/** The Threads API's limits (posts and media specifications). */
export const TEXT_LIMIT = 500;
export const CAROUSEL_MAX = 20;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
const VIDEO_MAX_BYTES = 1024 * 1024 * 1024;
const VIDEO_MAX_MS = 300_000;
/** Frames per second of the video specification. */
const FRAME_RATE = { min: 23, max: 60 };
/** Width to height, between 0.01:1 and 10:1, for images and videos alike. */
const ASPECT_MIN = 0.01;
const ASPECT_MAX = 10;

export function threadsViolations(content: PublishContent): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const text = content.text ?? '';
  // Threads counts characters (code points), so an emoji is one.
  const length = [...text].length;
  if (!text && content.media.length === 0) {
    violations.push({ path: 'text', code: 'text_or_media_required', message: 'A social_threads post needs text, media or both.' });
  }
  if (length > TEXT_LIMIT) {
    violations.push({
      path: 'text',
      code: 'max_length',
      limit: TEXT_LIMIT,
      message: `The text has ${length} characters; social_threads allows ${TEXT_LIMIT}.`,
    });
  }
  if (content.media.length > CAROUSEL_MAX) {
    violations.push({
      path: 'mediaIds',
      code: 'media_count',
      limit: CAROUSEL_MAX,
      message: `The post has ${content.media.length} media; a social_threads carousel takes 2 to ${CAROUSEL_MAX}.`,
    });
  }
  content.media.forEach((media, index) => {
    const path = `mediaIds/${index}`;
    if (media.kind === 'image' && IMAGE_TYPES.has(media.mimeType)) {
      if (media.size > IMAGE_MAX_BYTES) {
        violations.push({
          path,
          code: 'media_size',
          limit: IMAGE_MAX_BYTES,
          message: `The image has ${media.size} bytes; social_threads takes images up to 8 MB.`,
        });
      }
    } else if (media.kind === 'video' && VIDEO_TYPES.has(media.mimeType)) {
      if (media.size > VIDEO_MAX_BYTES) {
        violations.push({
          path,
          code: 'media_size',
          limit: VIDEO_MAX_BYTES,
          message: `The video has ${media.size} bytes; social_threads takes videos up to 1 GB.`,
        });
      }
      if (media.durationMs !== null && media.durationMs > VIDEO_MAX_MS) {
        violations.push({
          path,
          code: 'media_size',
          limit: VIDEO_MAX_MS / 1000,
          message: `The video lasts ${Math.round(media.durationMs / 1000)} s; social_threads takes videos up to 5 minutes.`,
        });
      }
      if (media.frameRate !== null && (media.frameRate < FRAME_RATE.min || media.frameRate > FRAME_RATE.max)) {
        violations.push({
          path,
          code: 'media_format',
          limit: media.frameRate < FRAME_RATE.min ? FRAME_RATE.min : FRAME_RATE.max,
          message: `The video has ${media.frameRate} frames a second; social_threads takes ${FRAME_RATE.min} to ${FRAME_RATE.max}.`,
        });
      }
    } else {
      violations.push({
        path,
        code: 'media_type',
        message: `social_threads posts take JPEG or PNG images and MP4 or MOV videos, not ${media.mimeType}.`,
      });
      return;
    }
    if (media.width && media.height) {
      const ratio = media.width / media.height;
      if (ratio < ASPECT_MIN || ratio > ASPECT_MAX) {
        violations.push({
          path,
          code: 'media_size',
          message: `The ${media.kind} is ${media.width}×${media.height}; social_threads takes aspect ratios from 0.01:1 to 10:1.`,
        });
      }
    }
  });
  return violations;
}
