import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { callTool } from './call.js';
import type { Forward } from './forward.js';
import { readResource, resourcesAt } from './resources.js';
import type { OperationTool } from './tools.js';

export interface McpServerOptions {
  version: string;
  /** Every tool of the contract; those of the chosen areas are listed and callable. */
  tools: readonly OperationTool[];
  areas: readonly string[];
  /** This instance's address (PUBLIC_URL), which names the resources. */
  baseUrl: string;
  forward: Forward;
  /** The id of the request that carries the messages, quoted in problem documents made here. */
  requestId: string;
}

function instructions(areas: readonly string[], known: readonly string[]): string {
  return [
    `Socialgate's HTTP API as tools: one per operation, named by its operationId, of the areas ${areas.join(', ')}` +
      ` (others: ${known.filter((area) => !areas.includes(area)).join(', ') || 'none'}; choose them with /mcp?areas=… or --areas).`,
    'A tool runs the operation with your key: its result is the API’s JSON answer, and an error is the API’s problem' +
      ' document (`code` says what went wrong, `errors` which input member). Path, query and header parameters are' +
      ' input members of their own name; the JSON body is `body`. Ids are prefixed strings (prof_…, acc_…, post_…).',
    'Files are uploaded by URL (importMedia). A tool marked unavailable answers 501 not_implemented in this instance.',
    'The resources are the OpenAPI contract and /llms.txt.',
  ].join('\n');
}

/** The MCP server of one client's messages: the tools of its areas, run through the API with its token. */
export function mcpServer(options: McpServerOptions): Server {
  const { tools, areas, baseUrl, forward, requestId } = options;
  const known = [...new Set(tools.map((tool) => tool.area))];
  const offered = tools.filter((tool) => areas.includes(tool.area));
  const server = new Server(
    { name: 'socialgate', title: 'Socialgate', version: options.version },
    { capabilities: { tools: {}, resources: {} }, instructions: instructions(areas, known) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: offered.map(({ tool }) => tool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = offered.find((candidate) => candidate.tool.name === params.name);
    if (!tool) {
      const elsewhere = tools.find((candidate) => candidate.tool.name === params.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        elsewhere
          ? `${params.name} is a tool of the area ${elsewhere.area}, which this connection did not choose (areas: ${areas.join(', ')}).`
          : `There is no tool ${params.name}.`,
      );
    }
    return callTool(tool, params.arguments ?? {}, forward, requestId);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resourcesAt(baseUrl) }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => readResource(baseUrl, params.uri, forward));
  return server;
}
