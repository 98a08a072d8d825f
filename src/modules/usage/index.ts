import type { Handler } from '../../http/handler.js';
import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { usageSettings } from './settings.js';

// The MCP server (src/mcp/) is no area of its own: another door to the same operations, served beside the listings.
// It and its SDK load on the first MCP request, not at every start.
const sendMcpMessages: Handler<'sendMcpMessages'> = async (request, services) =>
  (await import('../../mcp/http.js')).sendMcpMessages(request, services);

export const usage = defineArea({
  name: 'usage',
  contractArea: 'Usage',
  handlers: { ...handlers, sendMcpMessages },
  settings: usageSettings,
  tables: ['usage_counters'],
});
