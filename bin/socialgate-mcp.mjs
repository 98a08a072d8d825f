#!/usr/bin/env node
/**
 * `npx socialgate-mcp --url http://localhost:8080 --key sgk_…`: the MCP server on stdio (src/mcp/cli.ts), run from
 * the service's compiled JavaScript as `npm start` runs it (built first if a source changed). It writes nothing to
 * stdout but the protocol.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiled } from '../scripts/build/compile.mjs';

await import(pathToFileURL(join(await compiled(), 'src/mcp/cli.js')).href);
