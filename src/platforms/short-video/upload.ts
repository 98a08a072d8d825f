import { Readable as NodeReadable } from 'node:stream';
import { PlatformError } from '../errors.js';
import type { OpenMedia } from '../platform-module.js';

/**
 * The media transfer guide's rules: chunks of 5 to 64 MB sent in order, the last one taking the remainder (up to
 * 128 MB), `total_chunk_count` = floor(size / chunk_size), at most 1,000 chunks, a file under 5 MB in one piece.
 * 10,000,000 bytes is the guide's own example: within both readings of "MB", at most 430 chunks for 4 GB, and
 * a last chunk under 20 MB.
 */
const CHUNK_SIZE = 10_000_000;
const WHOLE_BELOW = 5_000_000;
/** One chunk of up to 20 MB: minutes, not the 20 s of an API call, on a slow link. */
const CHUNK_TIMEOUT_MS = 10 * 60 * 1000;

export interface ChunkPlan {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

export function planChunks(videoSize: number): ChunkPlan {
  const chunkSize = videoSize < WHOLE_BELOW ? videoSize : Math.min(videoSize, CHUNK_SIZE);
  return { videoSize, chunkSize, totalChunkCount: Math.max(1, Math.floor(videoSize / chunkSize)) };
}

/** Each chunk's inclusive byte range; the last one runs to the end of the file. */
export function chunkRanges(plan: ChunkPlan): Array<{ start: number; end: number }> {
  return Array.from({ length: plan.totalChunkCount }, (_, index) => ({
    start: index * plan.chunkSize,
    end: index === plan.totalChunkCount - 1 ? plan.videoSize - 1 : (index + 1) * plan.chunkSize - 1,
  }));
}

/**
 * PUTs the file to the init's `upload_url`, chunk after chunk, streamed from storage. The URL is its own
 * credential (no Authorization header). 206 means "more to come", 201 "all parts are in". A failure leaves
 * the upload incomplete, which the platform never publishes: the caller may start a new init safely.
 */
export async function uploadChunks(uploadUrl: string, mediaId: string, mimeType: string, plan: ChunkPlan, open: OpenMedia): Promise<void> {
  const ranges = chunkRanges(plan);
  for (const [index, range] of ranges.entries()) {
    const stream = await open(mediaId, range);
    let response: Response;
    try {
      response = await fetch(uploadUrl, {
        method: 'PUT',
        headers: {
          'Content-Type': mimeType,
          'Content-Length': String(range.end - range.start + 1),
          'Content-Range': `bytes ${range.start}-${range.end}/${plan.videoSize}`,
        },
        body: NodeReadable.toWeb(stream) as ReadableStream,
        duplex: 'half',
        redirect: 'manual',
        signal: AbortSignal.timeout(CHUNK_TIMEOUT_MS),
      } as RequestInit);
    } catch (error) {
      stream.destroy();
      throw new PlatformError('transient', `the upload of chunk ${index + 1} of ${ranges.length} failed: ${(error as Error).message}`);
    }
    await response.arrayBuffer();
    const last = index === ranges.length - 1;
    if (response.status === (last ? 201 : 206)) continue;
    const status = response.status;
    const what = `the platform answered HTTP ${status} to chunk ${index + 1} of ${ranges.length}`;
    // 403 (the URL expired), 404 (no such upload), 416 (out of step) and 5xx: this upload is lost, a new one may work.
    if (status >= 500 || status === 403 || status === 404 || status === 416 || status === 206 || status === 201) {
      throw new PlatformError('transient', what, { status, platformCode: status });
    }
    throw new PlatformError('invalid_request', what, { status, platformCode: status });
  }
}
