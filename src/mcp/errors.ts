import { ApiError } from '../lib/errors.js';

/** 406 `mcp_not_acceptable`: the client does not take both JSON and event streams, as the protocol requires of it. */
export class McpNotAcceptableError extends ApiError {
  constructor(detail: string) {
    super(406, 'mcp_not_acceptable', 'The MCP client must accept JSON and event streams', detail);
  }
}

/** 400 `mcp_message_refused`: the MCP server refused the messages (an unsupported protocol version, a batch it cannot take). */
export class McpMessageRefusedError extends ApiError {
  constructor(detail: string) {
    super(400, 'mcp_message_refused', 'The MCP server refused the messages', detail);
  }
}
