import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describeApi } from '../support/harness.js';
import { itDrivesTheApi, overStdio, withClient } from './support.js';

describeApi('the MCP server — stdio through the socialgate-mcp bin', (t) => {
  before('build the compiled JavaScript the bin runs, as npm ci does', async function () {
    this.timeout(180_000);
    await promisify(execFile)(process.execPath, ['scripts/build/compile.mjs'], { cwd: new URL('../../', import.meta.url) });
  });

  itDrivesTheApi(t, () => overStdio(t));

  it('runs from the repository as `npx socialgate-mcp --url … --key …`, with the service’s default areas', async function () {
    this.timeout(60_000);
    const names = await withClient(overStdio(t, ['npx', '--no-install', 'socialgate-mcp']), t.owner.key, undefined, async (client) =>
      (await client.listTools()).tools.map((tool) => tool.name),
    );
    expect(names).to.include.members(['listAccounts', 'createPost', 'sendMessage', 'getAccountInsights']);
    expect(names).to.not.include('connectBotchat');
  });

  it('answers the initialize with the service’s 401 problem when it refuses the key', async () => {
    const failure = await overStdio(t)('sgk_not_a_key').then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message)
      .to.match(/401/)
      .and.match(/invalid_token/);
  });
});
