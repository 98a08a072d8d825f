import { type Handler, principalOf } from '../../http/handler.js';
import type { Services } from '../../services.js';
import { MediaRejectedError, ResumableUploadRefusedError, type RejectionReason } from './errors.js';
import { handleTus, tusOf } from './tus.js';
import { findUpload, finishUpload, presentUpload, type UploadRow } from './uploads.js';

// The tus protocol's operations (POST /upload/tus, HEAD, PATCH, DELETE /upload/tus/{uploadId}, OPTIONS), served by
// @tus/server behind our pipeline, and our own read of an upload's progress (GET).

/** The refusal a failed upload keeps (its complete file was refused), answered again. */
function refusalOf(row: UploadRow): MediaRejectedError {
  const problem = row.error as { detail: string; errors?: Array<{ code: RejectionReason }> };
  return new MediaRejectedError(problem.errors?.[0]?.code ?? 'unreadable', problem.detail, 'body');
}

/** What the store holds of an upload still in flight; a finished one's bytes have moved into the media. */
async function progressOf(services: Services, row: UploadRow): Promise<{ offset: number; length: number | null }> {
  if (row.status === 'completed' || row.status === 'failed') {
    const length = row.length === null ? null : Number(row.length);
    return { offset: length ?? 0, length };
  }
  const upload = await (await tusOf(services)).store.getUpload(row.id);
  return { offset: upload.offset, length: upload.size ?? null };
}

export const describeResumableUploads: Handler<'describeResumableUploads'> = async (request, services) => {
  const { headers } = await handleTus(services, request.koa, null, request.requestId);
  return { status: 204, body: undefined, headers };
};

export const createResumableUpload: Handler<'createResumableUpload'> = async (request, services) => {
  const { headers } = await handleTus(services, request.koa, principalOf(request), request.requestId);
  return { status: 201, body: undefined, headers };
};

export const getResumableUploadOffset: Handler<'getResumableUploadOffset'> = async (request, services) => {
  const principal = principalOf(request);
  const row = await findUpload(services.db, principal, request.params.uploadId);
  if (row.status === 'failed') throw refusalOf(row);
  if (row.status === 'completed') {
    // Its bytes are the media's now: the whole file arrived, which is all a client resuming needs to know.
    const length = String(row.length);
    const headers = { 'Tus-Resumable': '1.0.0', 'Upload-Offset': length, 'Upload-Length': length, 'Cache-Control': 'no-store' };
    return { status: 200, body: undefined, headers };
  }
  const { headers } = await handleTus(services, request.koa, principal, request.requestId);
  return { status: 200, body: undefined, headers };
};

export const appendResumableUpload: Handler<'appendResumableUpload'> = async (request, services) => {
  const principal = principalOf(request);
  const row = await findUpload(services.db, principal, request.params.uploadId);
  if (row.status === 'failed') throw refusalOf(row);
  if (row.status === 'completed') {
    throw new ResumableUploadRefusedError(409, `The upload is complete (media ${row.mediaId}): it takes no more bytes.`);
  }
  const { headers } = await handleTus(services, request.koa, principal, request.requestId);
  return { status: 204, body: undefined, headers };
};

export const cancelResumableUpload: Handler<'cancelResumableUpload'> = async (request, services) => {
  const principal = principalOf(request);
  const row = await findUpload(services.db, principal, request.params.uploadId);
  const headers = row.status === 'uploading' ? (await handleTus(services, request.koa, principal, request.requestId)).headers : {};
  await services.db('mediaUploads').where({ id: row.id }).delete();
  return { status: 204, body: undefined, headers };
};

/**
 * The upload's progress. An upload whose every byte arrived but that no finish completed (its process died
 * between the two) is finished here: the finish is claimed, so this makes no second media.
 */
export const getResumableUpload: Handler<'getResumableUpload'> = async (request, services) => {
  const principal = principalOf(request);
  let row = await findUpload(services.db, principal, request.params.uploadId);
  const progress = await progressOf(services, row);
  if (row.status === 'uploading' && progress.length !== null && progress.offset === progress.length) {
    const { store } = await tusOf(services);
    // Its outcome, made media or refused file, is in the row read next; a failure of ours leaves it to a retry.
    await finishUpload(services, store, row.id, request.requestId).catch(() => undefined);
    row = await findUpload(services.db, principal, row.id);
    return { status: 200, body: presentUpload(row, await progressOf(services, row)) };
  }
  return { status: 200, body: presentUpload(row, progress) };
};
