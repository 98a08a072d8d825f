import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import type { Context, Next } from 'koa';
import type { Operation } from 'openapi-backend';
import { type ApiError, PayloadTooLargeError, ValidationFailedError } from '../lib/errors.js';
import { discard, spool, type SpooledFile } from '../lib/spool.js';
import type { RequestState } from './state.js';

export interface UploadSettings {
  /** The largest multipart body, in bytes. */
  maxBytes: number;
  /** Where file parts are written while the request is handled. */
  tmpDir: string;
}

/** The file part of a multipart body, written to a temporary file that is removed once the request ends. */
export interface UploadedFile extends SpooledFile {
  /** The name the client gave (folders and control characters dropped), or null. */
  filename: string | null;
}

/** Text members are short identifiers; anything bigger is not a body of ours. */
const FIELD_LIMITS = { fields: 20, fieldSize: 4096, files: 1, parts: 21 };

export function acceptsMultipart(operation: Operation | undefined): boolean {
  const content = (operation?.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
  return Boolean(content?.['multipart/form-data']);
}

function bodyTooLarge(maxBytes: number): ApiError {
  // The rest of the body is not read: the connection closes after the answer instead of draining it.
  return new PayloadTooLargeError(`${maxBytes} bytes`, { closeConnection: true });
}

function cleanFilename(raw: string | undefined): string | null {
  const name = (raw ?? '')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes.
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  return name || null;
}

/**
 * Reads a multipart/form-data body: text members into an object and the first file part streamed to a
 * temporary file (never into memory). The validator sees a file part as a member holding its file name.
 */
function readMultipart(ctx: Context, settings: UploadSettings): Promise<{ body: Record<string, string>; file: UploadedFile | null }> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > settings.maxBytes) return Promise.reject(bodyTooLarge(settings.maxBytes));
  return new Promise((resolve, reject) => {
    const body: Record<string, string> = {};
    let spooling: Promise<UploadedFile | null> = Promise.resolve(null);
    let failed = false;
    let busboy: ReturnType<typeof Busboy>;
    // Stops the file part being written. Destroying its stream instead would not do: a part the parser has
    // ended but spool has not read yet never settles spool's pipeline once destroyed (the request hung).
    const stopSpooling = new AbortController();
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe(busboy);
      // Parsing stops here, so a file part being written never ends: stopping it makes spool remove the file,
      // and the answer waits for that, so no temporary file outlives its request.
      stopSpooling.abort();
      spooling
        .then(
          (file) => discard(file?.path),
          () => undefined,
        )
        .finally(() => reject(error));
    };
    const invalid = (path: string, message: string, code: string) => fail(new ValidationFailedError([{ path, message, code }]));
    try {
      busboy = Busboy({ headers: ctx.req.headers as BusboyHeaders, limits: { ...FIELD_LIMITS, fileSize: settings.maxBytes } });
    } catch (error) {
      // No boundary, or not multipart at all.
      invalid('header/content-type', (error as Error).message, 'content_type');
      return;
    }
    busboy.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) invalid(`body/${name}`, `is longer than ${FIELD_LIMITS.fieldSize} bytes`, 'maxLength');
      body[name] = value;
    });
    busboy.on('file', (name, stream, filename) => {
      body[name] = filename;
      stream.on('limit', () => fail(bodyTooLarge(settings.maxBytes)));
      spooling = spool(stream, settings.tmpDir, settings.maxBytes, stopSpooling.signal).then((file) => ({
        ...file,
        filename: cleanFilename(filename),
      }));
      spooling.catch(fail);
    });
    busboy.on('filesLimit', () => invalid('body', 'has more than one file part', 'maxFiles'));
    busboy.on('fieldsLimit', () => invalid('body', `has more than ${FIELD_LIMITS.fields} members`, 'maxProperties'));
    busboy.on('partsLimit', () => invalid('body', `has more than ${FIELD_LIMITS.parts} parts`, 'maxProperties'));
    busboy.on('error', (error) => invalid('body', `is not valid multipart/form-data: ${(error as Error).message}`, 'multipart'));
    busboy.on('finish', () => {
      spooling.then((file) => {
        if (failed) return discard(file?.path);
        return resolve({ body, file });
      }, fail);
    });
    ctx.req.on('close', () => {
      // The client is gone; a 4xx keeps an abandoned upload out of the error log.
      if (!ctx.req.complete) invalid('body', 'ended before the multipart body did (the connection closed)', 'multipart');
    });
    ctx.req.pipe(busboy);
  });
}

/**
 * The body step for multipart routes: parses, hands the file to the handler through `state.upload`, and
 * removes the temporary file when the request is over (a handler that keeps the file has moved it by then).
 */
export async function multipartBody(ctx: Context & { state: RequestState }, settings: UploadSettings, next: Next): Promise<void> {
  const { body, file } = await readMultipart(ctx, settings).catch((error: unknown) => {
    // The rest of the body is never read: the connection closes after the answer instead of draining it.
    ctx.set('Connection', 'close');
    throw error;
  });
  ctx.request.body = body;
  ctx.state.upload = file ?? undefined;
  // What Idempotency-Key compares: the members and the file's digest, not the boundary-dependent bytes.
  ctx.state.rawBody = JSON.stringify({ fields: body, file: file && { sha256: file.sha256, size: file.size } });
  try {
    await next();
  } finally {
    await discard(file?.path);
  }
}
