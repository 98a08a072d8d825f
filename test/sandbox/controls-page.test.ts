import { expect } from 'chai';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

describe("sandbox — the people's controls, shown and checked", () => {
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox.close();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('the root page gives the demo credentials, and a control its body with an example', async () => {
    const page = await (await fetch(`${sandbox.url}/`)).text();
    expect(page).to.include('botchat bot token: 1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa');
    expect(page).to.include('chatapp-cloud: business account 102290129340398, phone number id 106540352242922');
    expect(page).to.include(
      `POST    ${sandbox.url}/_sandbox/botchat/messages\n        body: {"token":"1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa","text":"Are you open today?"}`,
    );
    expect(page).to.include(`${sandbox.url}/_sandbox/social_network/page-posts\n        body: {"pageId":"108234567890123"`);
  });

  it('refuses a wrong body to a control with 400 and the reason, before the control runs', async () => {
    const unknown = await post('/_sandbox/botchat/messages', { token: '1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa', txt: 'Hi' });
    expect(unknown.status).to.equal(400);
    expect(await unknown.json()).to.deep.equal({ error: 'body has an unknown member txt' });
    const missing = await post('/_sandbox/social_network/page-posts', { message: 'No page' });
    expect(missing.status).to.equal(400);
    expect(await missing.json()).to.deep.equal({ error: "body must have required property 'pageId'" });
    const posted = await post('/_sandbox/social_network/page-posts', { pageId: '108234567890123', message: 'Autumn menu' });
    expect(posted.status).to.equal(201);
  });
});
