import { isIPv6 } from 'node:net';
import type { Context } from 'koa';

/** A request of the API, as a tool call or a resource read becomes one. */
export interface ApiRequest {
  method: string;
  /** The path with its query string, `/posts?limit=10`. */
  path: string;
  headers?: Record<string, string>;
  /** The JSON body, serialised. */
  body?: string;
}

/** Sends a request through the service's own request pipeline, with the caller's token; answers what the API answers. */
export type Forward = (request: ApiRequest) => Promise<Response>;

/**
 * Requests to the service at `baseUrl` with the caller's `Authorization` header as it came: authentication,
 * scopes, profile restrictions, rate limits, usage, validation and problem documents are the API's own.
 */
export function forwardTo(baseUrl: string, authorization: string | undefined): Forward {
  return ({ method, path, headers = {}, body }) =>
    fetch(new URL(path, baseUrl), {
      method,
      headers: {
        ...headers,
        ...(authorization ? { Authorization: authorization } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body,
      redirect: 'manual',
    });
}

/**
 * The address this request reached the service on: its listener, whatever PUBLIC_URL or a proxy in front says.
 * A tool call made there is one more request of the same process.
 */
export function listenerAddress(ctx: Context): string {
  const { localAddress, localPort } = ctx.req.socket;
  if (!localAddress || !localPort) throw new Error('the MCP request came on a socket with no local address');
  return `http://${isIPv6(localAddress) ? `[${localAddress}]` : localAddress}:${localPort}`;
}
