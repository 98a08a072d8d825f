import { ApiError } from '../../lib/errors.js';

/** Why a file was refused, as `errors[0].code` of the problem (the contract's list). */
export type RejectionReason = 'type_not_allowed' | 'too_large' | 'unreadable' | 'fetch_failed';

/** 422 `media_rejected`: `detail` says exactly why, in words a person can act on. */
export class MediaRejectedError extends ApiError {
  constructor(
    readonly reason: RejectionReason,
    detail: string,
    path = 'body/file',
  ) {
    super(422, 'media_rejected', 'The media file was refused', detail, { errors: [{ path, message: detail, code: reason }] });
  }

  /** The same refusal pointing at another member (`body/url` for an imported file). */
  at(path: string): MediaRejectedError {
    return new MediaRejectedError(this.reason, this.detail, path);
  }
}

/**
 * 503 `storage_unavailable`: the bucket did not answer, or refused the service. The store's own error (bucket,
 * key, code) is the cause, for the log; the client is told only to come back.
 */
export class StorageUnavailableError extends ApiError {
  constructor(cause: Error) {
    super(503, 'storage_unavailable', 'Media storage unavailable', 'The media storage did not answer; try again in a moment.', {
      headers: { 'Retry-After': '30' },
    });
    this.cause = cause;
  }
}

export class RangeNotSatisfiableError extends ApiError {
  constructor(size: number, detail: string) {
    super(416, 'range_not_satisfiable', 'Range not satisfiable', detail, { headers: { 'Content-Range': `bytes */${size}` } });
  }
}

/** "1.3 GiB", "20 MiB", "512 bytes": sizes in problems, in the units the limits are given in. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'];
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes;
  let unit = '';
  for (const next of units) {
    if (value < 1024 && unit) break;
    value /= 1024;
    unit = next;
  }
  return `${Number(value.toFixed(1))} ${unit}`;
}

/** 409 `media_in_use`: posts not published yet use the media; `detail` names them (the first ten). */
export class MediaInUseError extends ApiError {
  constructor(posts: Array<{ id: string; status: string }>) {
    const named = posts.map((post) => `${post.id} (${post.status})`).join(', ');
    super(
      409,
      'media_in_use',
      'Media in use',
      `The media is used by post${posts.length === 1 ? '' : 's'} ${named}; delete ${posts.length === 1 ? 'the post' : 'them'} or remove the media from ${posts.length === 1 ? 'it' : 'them'} first.`,
    );
  }
}

/** A tus request the upload refuses, with the status the protocol gives it (tus clients act on the status). */
export class ResumableUploadRefusedError extends ApiError {
  constructor(status: 400 | 409 | 412 | 423, detail: string) {
    const refusals = {
      400: ['upload_request_invalid', 'Invalid tus request', {}],
      409: ['upload_offset_mismatch', 'Upload offset mismatch', {}],
      412: ['tus_version_unsupported', 'tus version not supported', { headers: { 'Tus-Version': '1.0.0' } }],
      423: ['upload_locked', 'Upload locked', {}],
    } as const;
    const [code, title, extra] = refusals[status];
    super(status, code, title, detail, extra);
  }
}
