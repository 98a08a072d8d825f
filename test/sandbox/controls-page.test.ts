import { expect } from 'chai';
import { bodyRefusal, declaredControls, exampleBody } from '../../src/sandbox/control-bodies.js';
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
    expect(await unknown.json()).to.deep.equal({ error: 'body/txt unknown member txt; did you mean "text"?' });
    const missing = await post('/_sandbox/social_network/page-posts', { message: 'No page' });
    expect(missing.status).to.equal(400);
    expect(await missing.json()).to.deep.equal({ error: 'body/pageId is required' });
    const posted = await post('/_sandbox/social_network/page-posts', { pageId: '108234567890123', message: 'Autumn menu' });
    expect(posted.status).to.equal(201);
  });

  it("answers a fault of a wrong kind with the kinds there are, and a fault's wrong member within its own kind", async () => {
    const token = '1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa';
    const kind = await post('/_sandbox/botchat/faults', { token, faults: [{ kind: 'rate_limit' }] });
    expect(kind.status).to.equal(400);
    expect(await kind.json()).to.deep.equal({
      error:
        'body/faults/0/kind is "rate_limit", not one of the allowed values: rate_limited, server_error, hang_after_send, lost_answer, bad_request; did you mean "rate_limited"?',
    });
    const member = await post('/_sandbox/botchat/faults', { token, faults: [{ kind: 'rate_limited', retryAfter: 0 }] });
    expect(await member.json()).to.deep.equal({ error: 'body/faults/0/retryAfter must be >= 1' });
  });
});

describe("sandbox — every people's control declares its body", () => {
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox.close();
  });

  /** `METHOD path` of each control on the root page that takes a body, and whether an example follows it. */
  async function controlsShown(): Promise<Array<{ route: string; example: boolean }>> {
    const lines = (await (await fetch(`${sandbox.url}/`)).text()).split('\n');
    return lines.flatMap((line, index) => {
      const control = /^(\S+)\s+https?:\/\/[^/]+(\/_sandbox\/\S+)$/.exec(line);
      if (!control || control[1] === 'GET') return [];
      return [{ route: `${control[1]!.split(',')[0]} ${control[2]}`, example: lines[index + 1]?.startsWith('        body: ') ?? false }];
    });
  }

  it('shows a body with an example under every control that takes one', async () => {
    expect((await controlsShown()).filter((control) => !control.example).map((control) => control.route)).to.deep.equal([]);
  });

  it("takes each control's own example", () => {
    expect(declaredControls().flatMap((route) => (bodyRefusal(route, JSON.parse(exampleBody(route)!)) ? [route] : []))).to.deep.equal([]);
  });
});
