import { expect } from 'chai';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

describe('sandbox — a request routed among the routes of its first path segment', () => {
  let sandbox: Sandbox;
  const token = '1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa';

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox.close();
  });

  it("answers a platform's route whatever the case of its path, as the router matches it", async () => {
    for (const path of [`/botchat/bot${token}/getMe`, `/BotChat/bot${token}/getMe`]) {
      const answer = await fetch(`${sandbox.url}${path}`, { method: 'POST' });
      expect(answer.status, path).to.equal(200);
      expect(((await answer.json()) as { result: { username: string } }).result.username).to.equal('sandbox_demo_bot');
    }
  });

  it('answers another method on a route 405 with the methods it takes, and a path of no route 404', async () => {
    const wrongMethod = await fetch(`${sandbox.url}/_sandbox/botchat/messages`, { method: 'GET' });
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('POST');
    for (const path of ['/nowhere', '/botchat', '/_sandbox/botchat/nothing']) {
      expect((await fetch(`${sandbox.url}${path}`)).status, path).to.equal(404);
    }
    expect((await fetch(`${sandbox.url}/`)).status).to.equal(200);
  });
});
