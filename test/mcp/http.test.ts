import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeApi } from '../support/harness.js';
import { itDrivesTheApi, overHttp, withClient } from './support.js';

describeApi('the MCP server — Streamable HTTP at POST /mcp', (t) => {
  itDrivesTheApi(t, () => overHttp(t));

  it('offers accounts, publishing, messaging and analytics when the client names no areas', async () => {
    const names = await withClient(overHttp(t), t.owner.key, undefined, async (client) =>
      (await client.listTools()).tools.map((tool) => tool.name),
    );
    expect(names).to.include.members(['listAccounts', 'createPost', 'importMedia', 'sendMessage', 'replyToComment', 'getAccountInsights']);
    expect(names).to.not.include.members(['connectBotchat', 'createCampaign', 'createHook']);
  });

  it('refuses a token the API refuses, with its 401 problem document', async () => {
    const failure = await overHttp(t)('sgk_not_a_key').then(
      () => null,
      (error: Error & { code?: number }) => error,
    );
    expect(failure?.code).to.equal(401);
    expect(failure?.message).to.match(/invalid_token/);
  });

  it('refuses an input that breaks the operation’s schemas before sending anything, in the API’s words', async () => {
    const result = (await withClient(overHttp(t), t.owner.key, ['publishing'], (client) =>
      client.callTool({
        name: 'createPost',
        arguments: { body: { accountIds: ['acc_nope'], text: '', scheduledAt: '2030-01-01T00:00:00Z' }, colour: 'red' },
      }),
    )) as CallToolResult;
    expect(result.isError).to.equal(true);
    expect(result.structuredContent).to.include({ status: 400, code: 'validation_failed' });
    const errors = (result.structuredContent as { errors: Array<{ path: string }> }).errors.map((error) => error.path);
    expect(errors).to.include.members(['input/colour', 'input/body/text', 'input/body/accountIds/0']);
    expect((result.structuredContent as { detail: string }).detail).to.match(/nothing was sent/);
    const posts = await t.app.api.get('/posts', { token: t.owner.key });
    expect(posts.body.data).to.deep.equal([]);
  });

  it('reads the contract and /llms.txt as resources, as this instance serves them', async () => {
    const [listed, contract, llms] = await withClient(overHttp(t), t.owner.key, undefined, async (client) => [
      (await client.listResources()).resources.map((resource) => resource.uri),
      await client.readResource({ uri: `${t.app.url}/openapi.json` }),
      await client.readResource({ uri: `${t.app.url}/llms.txt` }),
    ]);
    expect(listed).to.deep.equal([`${t.app.url}/openapi.json`, `${t.app.url}/llms.txt`]);
    const document = JSON.parse((contract.contents[0] as { text: string }).text);
    expect(document.paths['/mcp'].post.operationId).to.equal('sendMcpMessages');
    expect((llms.contents[0] as { text: string }).text).to.equal((await t.app.api.get('/llms.txt')).text);
  });

  it('answers a tool of an area the client did not choose with an error naming the area', async () => {
    const failure = await withClient(overHttp(t), t.owner.key, ['publishing'], (client) =>
      client.callTool({ name: 'createHook', arguments: {} }),
    ).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).to.match(/createHook is a tool of the area webhooks/);
  });
});
