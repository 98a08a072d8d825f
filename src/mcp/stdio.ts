import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, isInitializeRequest, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from './tools.js';

export interface StdioBridge {
  /** The service's address, `http://localhost:8080`. */
  url: string;
  /** An API key (or a session token) of the owner: the bearer of every request. */
  key: string;
  /** The areas whose operations are tools; the service's default when absent. */
  areas?: string[];
}

/**
 * MCP over stdio, for desktop clients: every message read from stdin is sent to the service's own MCP server
 * (POST /mcp, with the key) and every answer written to stdout. The tools, their checks and their calls are the
 * running instance's, so they follow its contract and what it has built; nothing is made here. A request the
 * service cannot be reached for (or refuses: a bad key is its 401 problem) is answered with a JSON-RPC error
 * saying so. Diagnostics go to stderr; stdout carries only the protocol.
 */
export async function bridgeStdio({ url, key, areas }: StdioBridge): Promise<void> {
  const endpoint = new URL(MCP_PATH, url);
  if (areas) endpoint.searchParams.set('areas', areas.join(','));
  const remote = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  const local = new StdioServerTransport();
  // The version agreed by initialize goes on every later POST (MCP-Protocol-Version), as the SDK's client sends it.
  const initializing = new Set<string | number>();
  local.onmessage = (message) => {
    if (isInitializeRequest(message) && isJSONRPCRequest(message)) initializing.add(message.id);
    remote.send(message).catch((error: Error) => {
      // fetch's own message ("fetch failed") says nothing of why; its cause does (ECONNREFUSED …).
      const why = `${endpoint.href}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`;
      if (isJSONRPCRequest(message))
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InternalError, message: why } });
      else process.stderr.write(`socialgate-mcp: ${why}\n`);
    });
  };
  remote.onmessage = (message) => {
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id))
      remote.setProtocolVersion(String(message.result.protocolVersion));
    void local.send(message);
  };
  remote.onerror = (error) => process.stderr.write(`socialgate-mcp: ${error.message}\n`);
  local.onclose = () => void remote.close();
  process.stdin.once('end', () => void local.close());
  await remote.start();
  await local.start();
}
