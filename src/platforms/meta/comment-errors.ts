import { CommentActionRefused, CommentNotFoundAtPlatform } from '../capabilities/comments.js';
import type { PlatformError } from '../errors.js';
import { classifyMetaError, type GraphErrorBody } from './graph.js';

/**
 * Meta's refusals on comments and replies (pages, Threads): "no such object" (code 100, subcode 33) means the
 * comment or post is gone; any other request error on one is the platform refusing the action (hiding the
 * account's own comment, deleting another person's reply), in its own words.
 */
export function classifyCommentError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  if (error.kind !== 'invalid_request') return error;
  const graph = (body as GraphErrorBody | undefined)?.error;
  if (graph?.code === 100 && graph.error_subcode === 33) return new CommentNotFoundAtPlatform(error.message);
  return new CommentActionRefused(error.message);
}
