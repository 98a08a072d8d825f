import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiTest } from '../support/harness.js';
import { restrictedKey } from '../support/owners.js';

/** Connects the SDK's own client to the service with a token and the areas it chooses (the server's default when none). */
export type Connect = (token: string, areas?: string[]) => Promise<Client>;

/** A client of the service's MCP server over Streamable HTTP at `/mcp`. */
export function overHttp(t: ApiTest): Connect {
  return async (token, areas) => {
    const url = new URL(`${t.app.url}/mcp${areas ? `?areas=${areas.join(',')}` : ''}`);
    const client = new Client({ name: 'socialgate-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  };
}

/** Runs `use` with a connected client, closed afterwards whatever happens. */
export async function withClient<T>(
  connect: Connect,
  token: string,
  areas: string[] | undefined,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await connect(token, areas);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** A tool's result, which must be a success: its JSON answer. */
export async function called(client: Client, name: string, input: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).to.equal(false);
  return result.structuredContent;
}

/**
 * What an agent does through either transport, each step a tool call: it lists the tools, creates a profile,
 * connects the sandbox bot to it, schedules a post there and reads it back; and a key restricted to another
 * profile is refused that post with the API's own 403 problem document, as a tool error.
 */
export function itDrivesTheApi(t: ApiTest, connect: () => Connect): void {
  const areas = ['accounts', 'connect', 'publishing'];

  it('lists one tool per operation of the chosen areas, named by its operationId, uploads as imports by URL', async () => {
    const names = await withClient(connect(), t.owner.key, areas, async (client) =>
      (await client.listTools()).tools.map((tool) => tool.name),
    );
    expect(names).to.include.members(['createProfile', 'connectBotchat', 'createPost', 'getPost', 'importMedia']);
    expect(names).to.not.include.members(['uploadMedia', 'sendMessage', 'sendMcpMessages']);
  });

  it('creates a profile, connects the sandbox bot, schedules a post and reads it back', async () => {
    const { token: botToken } = await t.sandbox.botchat.newBot('Mcp Poster');
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const [profile, account, post, readBack] = await withClient(connect(), t.owner.key, areas, async (client) => {
      const profile = await called(client, 'createProfile', { body: { name: 'Agent profile' } });
      const account = await called(client, 'connectBotchat', { body: { profileId: profile.id, botToken } });
      const post = await called(client, 'createPost', {
        body: { accountIds: [account.id], text: 'Scheduled by an agent', scheduledAt, platformOptions: { botchat: { chatIds: ['4242'] } } },
      });
      return [profile, account, post, await called(client, 'getPost', { id: post.id })];
    });
    expect(account).to.include({ profileId: profile.id, platform: 'botchat' });
    expect(post).to.include({ status: 'scheduled', profileId: profile.id });
    expect(readBack).to.include({ id: post.id, status: 'scheduled', text: 'Scheduled by an agent' });
    expect(new Date(readBack.scheduledAt).toISOString()).to.equal(scheduledAt);
    const byApi = await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key });
    expect(byApi.body).to.deep.equal(readBack);
  });

  it('gives a profile-restricted key the API’s 403 problem document, as a tool error, for another profile’s post', async () => {
    const { token: botToken } = await t.sandbox.botchat.newBot('Other Poster');
    const post = await withClient(connect(), t.owner.key, areas, async (client) => {
      const profile = await called(client, 'createProfile', { body: { name: 'Another profile' } });
      const account = await called(client, 'connectBotchat', { body: { profileId: profile.id, botToken } });
      const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
      return called(client, 'createPost', {
        body: { accountIds: [account.id], text: 'Not yours', scheduledAt, platformOptions: { botchat: { chatIds: ['4242'] } } },
      });
    });
    const restricted = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    const refused = await withClient(connect(), restricted, areas, (client) =>
      client.callTool({ name: 'getPost', arguments: { id: post.id } }),
    );
    expect(refused.isError).to.equal(true);
    expect(refused.structuredContent).to.include({ status: 403, code: 'profile_out_of_scope' });
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0]!.text)).to.deep.equal(refused.structuredContent);
  });
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The package's `socialgate-mcp` bin, as package.json declares it. */
export function binPath(): string {
  const { bin } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(ROOT, bin['socialgate-mcp']!);
}

/** A client of the `socialgate-mcp` bin over stdio, the bin spawned against the service with the token. */
export function overStdio(t: ApiTest, command: string[] = [process.execPath, binPath()]): Connect {
  return async (token, areas) => {
    const [program, ...args] = command;
    const transport = new StdioClientTransport({
      command: program!,
      args: [...args, '--url', t.app.url, '--key', token, ...(areas ? ['--areas', areas.join(',')] : [])],
      cwd: ROOT,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'socialgate-tests', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };
}
