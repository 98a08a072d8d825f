import { Readable } from 'node:stream';
import type { Server } from '@tus/server';
import type { Context } from 'koa';
import { ApiError, NotFoundError, PayloadTooLargeError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { formatBytes, ResumableUploadRefusedError } from './errors.js';
import { profileForUpload } from './service.js';
import { mediaFolders } from './storage.js';
import { finishUpload, recordUpload, type UploadStore } from './uploads.js';

/** What a tus request of ours carries into the server's hooks. */
interface Caller {
  /** Null only on OPTIONS, which runs no hook. */
  principal: Principal | null;
  requestId: string;
  /** An error of ours a hook threw: answered as our problem, not as tus's text. */
  refused?: ApiError;
}

interface Tus {
  server: Server;
  store: UploadStore;
}

/** One tus server per service instance (its in-memory locks serialise the requests on one upload). */
const servers = new WeakMap<Services, Promise<Tus>>();
const callers = new WeakMap<Request, Caller>();

/**
 * The store of the bytes in flight: files under DATA_DIR/media/tus, or, with MEDIA_STORAGE=s3, an S3 multipart
 * upload per upload in the media bucket (any API process can then take the next PATCH). Each store, and the tus
 * server, is loaded on the first upload, not at every start (the S3 one only with MEDIA_STORAGE=s3).
 */
async function openStore(services: Services): Promise<UploadStore> {
  const { storage, s3 } = services.config.media;
  if (storage !== 's3' || !s3) {
    const { FileStore } = await import('@tus/file-store');
    return new FileStore({ directory: mediaFolders(services.config.dataDir).tus });
  }
  const { S3Store } = await import('@tus/s3-store');
  return new S3Store({
    partSize: 8 * 1024 * 1024,
    s3ClientConfig: {
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: s3.credentials && { ...s3.credentials },
    },
  });
}

function callerOf(request: Request): Caller & { principal: Principal } {
  const caller = callers.get(request);
  if (!caller?.principal) throw new Error('a tus request reached the server without its caller');
  return caller as Caller & { principal: Principal };
}

async function open(services: Services): Promise<Tus> {
  const store = await openStore(services);
  const { Server } = await import('@tus/server');
  const { media, publicUrl } = services.config;
  const server = new Server({
    path: '/upload/tus',
    datastore: store,
    // The largest file any kind may be; each kind's own limit is checked once the file is complete.
    maxSize: Math.max(...Object.values(media.maxBytes)),
    generateUrl: (_request, { id }) => `${publicUrl}/upload/tus/${id}`,
    namingFunction: () => newId('upl'),
    onUploadCreate: async (request, upload) => {
      const { principal } = callerOf(request);
      const profileId = await profileForUpload(services.db, principal, upload.metadata?.profileId ?? undefined);
      const filename = upload.metadata?.filename?.slice(0, 255) || null;
      await recordUpload(
        services.db,
        { id: upload.id, ownerId: principal.ownerId, profileId, filename, length: upload.size ?? null },
        media.uploadExpiryMs,
      );
      return {};
    },
    onUploadFinish: async (request, upload) => {
      const mediaId = await finishUpload(services, store, upload.id, callerOf(request).requestId);
      return { headers: { 'Media-Id': mediaId } };
    },
    onResponseError: (request, error) => {
      if (error instanceof ApiError) callerOf(request).refused = error;
      return undefined;
    },
  });
  return { server, store };
}

export function tusOf(services: Services): Promise<Tus> {
  let tus = servers.get(services);
  if (!tus) {
    tus = open(services);
    servers.set(services, tus);
  }
  return tus;
}

/** tus's own refusal (its status and its one line of text) as our problem. */
function refusal(status: number, text: string, maxSize: number): ApiError {
  const detail = text.trim();
  if (status === 404) return new NotFoundError('upload');
  if (status === 413) return new PayloadTooLargeError(`${formatBytes(maxSize)}, the largest file any kind may be`);
  if (status === 409) return new ResumableUploadRefusedError(409, `${detail}: send HEAD for the upload's offset and continue from it.`);
  if (status === 412 || status === 423) return new ResumableUploadRefusedError(status, detail);
  if (status >= 400 && status < 500) return new ResumableUploadRefusedError(400, detail);
  throw new Error(`the tus server answered ${status}: ${detail}`);
}

/** The answer of a tus request: its status and headers (tus answers carry no body of their own). */
export interface TusAnswer {
  status: number;
  headers: Record<string, string>;
}

/**
 * Hands a request the pipeline let through (authenticated, rate-limited, its headers checked by the contract;
 * its body unread) to the tus server, and its answer back: an error of ours as our problem, tus's refusals
 * mapped to our codes.
 */
export async function handleTus(services: Services, koa: Context, principal: Principal | null, requestId: string): Promise<TusAnswer> {
  const { server } = await tusOf(services);
  const hasBody = koa.method === 'PATCH' || koa.method === 'POST';
  const request = new Request(new URL(koa.url, services.config.publicUrl), {
    method: koa.method,
    headers: Object.entries(koa.req.headers).flatMap(([name, value]) =>
      value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one]),
    ),
    ...(hasBody ? { body: Readable.toWeb(koa.req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  callers.set(request, { principal, requestId });
  const response = await server.handleWeb(request);
  const refused = callers.get(request)?.refused;
  if (refused) throw refused;
  if (response.status >= 400) throw refusal(response.status, await response.text(), server.options.maxSize as number);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // Koa writes the length of what it sends (nothing).
    if (name !== 'content-length') headers[name] = value;
  });
  return { status: response.status, headers };
}
