import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'koa';
import type { Handler } from '../http/handler.js';
import { onePer } from '../lib/memo.js';
import type { Services } from '../services.js';
import { McpMessageRefusedError, McpNotAcceptableError } from './errors.js';
import { forwardTo, listenerAddress } from './forward.js';
import { mcpServer } from './server.js';
import { contractTools, defaultAreas } from './tools.js';

// Made once per service: the contract and what is built change only with a new build.
const toolsOf = onePer((services: Services) => contractTools(services.contract.document, services.unbuilt));

/** The request as the SDK's transport reads it: its headers (its body is parsed already, by the pipeline). */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
  }
  return new Request(new URL(ctx.originalUrl, 'http://socialgate.invalid'), { method: ctx.method, headers });
}

/** A refusal of the SDK's transport (a JSON-RPC error in an HTTP error) as the API's problem. */
async function refusal(response: Response): Promise<Error> {
  const text = await response.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // Not JSON: the text says it.
  }
  return response.status === 406 ? new McpNotAcceptableError(message) : new McpMessageRefusedError(message);
}

/**
 * POST /mcp: the MCP server over Streamable HTTP, stateless (no session: each POST is answered on its own, in
 * JSON). The pipeline has authenticated the caller, counted the request and checked the body already; a tool
 * call then goes back into the pipeline, through this process's own listener, with the caller's token.
 */
export const sendMcpMessages: Handler<'sendMcpMessages'> = async (request, services) => {
  const ctx = request.koa;
  const server = mcpServer({
    version: services.config.version,
    tools: toolsOf(services),
    areas: request.query.areas ?? defaultAreas(services.contract.document),
    baseUrl: services.config.publicUrl,
    forward: forwardTo(listenerAddress(ctx), ctx.get('Authorization') || undefined),
    requestId: request.requestId,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(webRequest(ctx), { parsedBody: request.body });
    if (response.status >= 400) throw await refusal(response);
    if (response.status === 202) return { status: 202, body: undefined };
    return { status: 200, raw: Buffer.from(await response.arrayBuffer()), contentType: 'application/json' };
  } finally {
    await server.close();
  }
};
