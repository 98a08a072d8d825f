import type { Operation } from 'openapi-backend';
import type { Principal } from '../modules/auth/principal.js';
import type { UploadedFile } from './multipart.js';

/** What the middlewares learn about a request, in the order they learn it. */
export interface RequestState {
  requestId: string;
  operation?: Operation;
  principal?: Principal | null;
  /** Query and path parameters after the contract's type coercion. */
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
  /** The body's bytes exactly as received, for hashing and signature checks. */
  rawBody?: string;
  /** The file part of a multipart body, on a temporary file (src/http/multipart.ts). */
  upload?: UploadedFile;
}
