import { type Handler, principalOf } from '../../http/handler.js';
import type { UploadedFile } from '../../http/multipart.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { discard } from '../../lib/spool.js';
import { importFromUrl } from './import.js';
import { mediaPage, removeMedia } from './library.js';
import { requestedRange } from './range.js';
import { findByToken, findMedia, presentMedia, profileForUpload, storeMedia } from './service.js';
import { storageFor } from './storage.js';

export const uploadMedia: Handler<'uploadMedia'> = async (request, services) => {
  const principal = principalOf(request);
  const upload = request.koa.state.upload as UploadedFile | undefined;
  // The validator saw `file` as a member; only a file part (with a file name) carries bytes.
  if (!upload) throw new ValidationFailedError([{ path: 'body/file', message: 'must be a file part (with a filename)', code: 'type' }]);
  const fields = request.koa.request.body as { profileId?: string };
  const profileId = await profileForUpload(services.db, principal, fields.profileId);
  // The temporary file is removed by the body step (src/http/multipart.ts) unless it was stored.
  return { status: 201, body: presentMedia(await storeMedia(services, principal, profileId, upload), services.config.publicUrl) };
};

export const importMedia: Handler<'importMedia'> = async (request, services) => {
  const principal = principalOf(request);
  const { url, filename, profileId: requested } = request.body;
  // Checked before anything is fetched.
  const profileId = await profileForUpload(services.db, principal, requested);
  const fetched = await importFromUrl(services, url, filename);
  try {
    const row = await storeMedia(services, principal, profileId, fetched, 'body/url');
    return { status: 201, body: presentMedia(row, services.config.publicUrl) };
  } finally {
    await discard(fetched.path);
  }
};

export const getMedia: Handler<'getMedia'> = async (request, services) => ({
  status: 200,
  body: presentMedia(await findMedia(services.db, principalOf(request), request.params.id), services.config.publicUrl),
});

/** Public: the token in the URL is the authorisation. The bytes never change, so they may be cached for a year. */
export const downloadMediaFile: Handler<'downloadMediaFile'> = async (request, services) => {
  const row = await findByToken(services.db, request.params.id, request.query.token);
  const size = Number(row.size);
  const etag = `"${row.sha256}"`;
  const range = requestedRange(request.koa.get('Range') || undefined, request.koa.get('If-Range') || undefined, etag, size);
  const storage = storageFor(services.config);
  const headers = { 'Accept-Ranges': 'bytes', ETag: etag, 'Cache-Control': 'public, max-age=31536000, immutable' };
  if (!range) {
    return {
      status: 200,
      raw: await storage.read(row.storageKey),
      contentType: row.mimeType,
      headers: { ...headers, 'Content-Length': String(size) },
    };
  }
  return {
    status: 206,
    raw: await storage.read(row.storageKey, range),
    contentType: row.mimeType,
    headers: {
      ...headers,
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    },
  };
};

export const listMedia: Handler<'listMedia'> = async (request, services) => ({
  status: 200,
  body: await mediaPage(services, principalOf(request), request.query),
});

export const deleteMedia: Handler<'deleteMedia'> = async (request, services) => {
  await removeMedia(services, principalOf(request), request.params.id);
  return { status: 204, body: undefined };
};
