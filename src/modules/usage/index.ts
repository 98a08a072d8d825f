import { sendMcpMessages } from '../../mcp/http.js';
import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { usageSettings } from './settings.js';

// The MCP server (src/mcp/) is no area of its own: another door to the same operations, served beside the listings.
export const usage = defineArea({
  name: 'usage',
  contractArea: 'Usage',
  handlers: { ...handlers, sendMcpMessages },
  settings: usageSettings,
  tables: ['usage_counters'],
});
