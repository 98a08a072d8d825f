import { parseArgs } from 'node:util';
import { bridgeStdio } from './stdio.js';

const USAGE = `Usage: socialgate-mcp --url <service address> --key <API key> [--areas publishing,messaging]

An MCP server on stdio for desktop clients, forwarding to a Socialgate service's /mcp with the key.
  --url    the service's address (or SOCIALGATE_URL), e.g. http://localhost:8080
  --key    an API key (or SOCIALGATE_API_KEY); a profile-restricted key acts within its profiles only
  --areas  the areas whose operations are tools, comma-separated (default: accounts, publishing, messaging, analytics)
`;

/** `npx socialgate-mcp` (bin/socialgate-mcp.mjs): reads its arguments, then bridges stdio to the service. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, key: { type: 'string' }, areas: { type: 'string' }, help: { type: 'boolean' } },
  });
  const url = values.url ?? process.env.SOCIALGATE_URL;
  const key = values.key ?? process.env.SOCIALGATE_API_KEY;
  if (values.help || !url || !key) {
    process.stderr.write(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const areas = values.areas
    ?.split(',')
    .map((area) => area.trim())
    .filter(Boolean);
  await bridgeStdio({ url, key, ...(areas ? { areas } : {}) });
}

main().catch((error: Error) => {
  process.stderr.write(`socialgate-mcp: ${error.message}\n\n${USAGE}`);
  process.exit(2);
});
