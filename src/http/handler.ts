import type { Readable } from 'node:stream';
import type { Context as KoaContext } from 'koa';
import type { operations } from '../../generated/api.js';
import type { OperationId } from '../../generated/operations.js';
import type { Principal } from '../modules/auth/principal.js';
import type { Services } from '../services.js';

export type { OperationId };

type Op<K extends OperationId> = operations[K];
type ParamsOf<K extends OperationId, Where extends 'path' | 'query' | 'header'> =
  Op<K> extends { parameters: { [W in Where]?: infer P } }
    ? undefined extends P
      ? Partial<NonNullable<P>>
      : NonNullable<P>
    : Record<string, never>;
type JsonBodyOf<K extends OperationId> =
  Op<K> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : Op<K> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : undefined;

/** The statuses a handler answers itself; error statuses come from thrown ApiErrors. */
type SuccessStatus = 200 | 201 | 202 | 204 | 206 | 302 | 303 | 304 | 503;
type ResponsesOf<K extends OperationId> = Op<K>['responses'];
type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;

/** What a handler answers: one of the success statuses its operation declares, with that status's body. */
export type Reply<K extends OperationId> =
  | {
      [S in keyof ResponsesOf<K> & SuccessStatus]: {
        status: S;
        body: ContentOf<ResponsesOf<K>[S]>;
        headers?: Record<string, string>;
        contentType?: string;
      };
    }[keyof ResponsesOf<K> & SuccessStatus]
  | {
      /** A body serialised already (a cached document, a file), sent byte for byte; a stream is piped. */
      status: keyof ResponsesOf<K> & SuccessStatus;
      raw: string | Buffer | Readable;
      contentType: string;
      headers?: Record<string, string>;
    };

export interface Request<K extends OperationId> {
  operationId: K;
  params: ParamsOf<K, 'path'>;
  query: ParamsOf<K, 'query'>;
  body: JsonBodyOf<K>;
  /** Who is calling; `null` only on public operations. */
  principal: Principal | null;
  requestId: string;
  koa: KoaContext;
}

export type Handler<K extends OperationId> = (request: Request<K>, services: Services) => Promise<Reply<K>>;

/** A handler of some operation, as the dispatcher sees it. */
export type AnyHandler = (request: Request<OperationId>, services: Services) => Promise<AnyReply>;
export interface AnyReply {
  status: number;
  body?: unknown;
  raw?: string | Buffer | Readable;
  headers?: Record<string, string>;
  contentType?: string;
}

/** Requires an authenticated principal; for handlers of operations that are never public. */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('an authenticated operation was reached without a principal');
  return request.principal;
}
