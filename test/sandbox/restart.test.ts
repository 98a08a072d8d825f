import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

interface Update {
  update_id: number;
  message: { message_id: number; text: string };
}

/** A bot's webhook endpoint: the updates the platform sent it, with the secret token each carried. */
async function webhookEndpoint(): Promise<{ url: string; updates: Array<{ update: Update; secret: unknown }>; server: Server }> {
  const updates: Array<{ update: Update; secret: unknown }> = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    updates.push({ update: JSON.parse(body) as Update, secret: request.headers['x-telegram-bot-api-secret-token'] });
    response.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, updates, server };
}

async function post<T>(sandbox: Sandbox, path: string, body: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

describe('sandbox — a restart', () => {
  let stateDir: string;
  let endpoint: Awaited<ReturnType<typeof webhookEndpoint>>;
  let sandbox: Sandbox | undefined;

  beforeEach(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
    endpoint = await webhookEndpoint();
  });

  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    endpoint.server.closeAllConnections();
    await new Promise((resolve) => endpoint.server.close(resolve));
    rmSync(stateDir, { recursive: true, force: true });
  });

  const restart = async () => {
    await sandbox!.close();
    sandbox = await startSandbox({ port: 0, stateDir });
  };

  it('keeps a bot, its token and its webhook, and never gives an update or message id twice', async () => {
    sandbox = await startSandbox({ port: 0, stateDir });
    const { token } = await post<{ token: string }>(sandbox, '/_sandbox/botchat/bots', { firstName: 'Orders' });
    await post(sandbox, `/botchat/bot${token}/setWebhook`, { url: endpoint.url, secret_token: 'our-secret' });
    await post(sandbox, '/_sandbox/botchat/messages', { token, text: 'before' });

    await restart();

    const me = await post<{ ok: boolean; result: { first_name: string } }>(sandbox, `/botchat/bot${token}/getMe`);
    expect(me).to.deep.include({ ok: true }).and.nested.include({ 'result.first_name': 'Orders' });
    const info = await post<{ result: { url: string } }>(sandbox, `/botchat/bot${token}/getWebhookInfo`);
    expect(info.result.url).to.equal(endpoint.url);
    const after = await post<{ webhookStatus: number }>(sandbox, '/_sandbox/botchat/messages', { token, text: 'after' });
    expect(after.webhookStatus).to.equal(200);
    const [before, later] = endpoint.updates;
    expect(later!.secret).to.equal('our-secret');
    expect(later!.update.message.text).to.equal('after');
    expect(later!.update.update_id).to.be.greaterThan(before!.update.update_id);
    expect(later!.update.message.message_id).to.be.greaterThan(before!.update.message.message_id);
  });

  it("still finds a bot's post to delete it, and gives its next post a new id", async () => {
    sandbox = await startSandbox({ port: 0, stateDir });
    const { token } = await post<{ token: string }>(sandbox, '/_sandbox/botchat/bots');
    const first = await post<{ result: { message_id: number } }>(sandbox, `/botchat/bot${token}/sendMessage`, { chat_id: 77, text: 'one' });

    await restart();

    const deleted = await post<{ ok: boolean }>(sandbox, `/botchat/bot${token}/deleteMessage`, {
      chat_id: 77,
      message_id: first.result.message_id,
    });
    expect(deleted.ok).to.equal(true);
    const second = await post<{ result: { message_id: number } }>(sandbox, `/botchat/bot${token}/sendMessage`, {
      chat_id: 77,
      text: 'two',
    });
    expect(second.result.message_id).to.be.greaterThan(first.result.message_id);
  });

  it('starts afresh, with its demo bot, in an empty folder', async () => {
    sandbox = await startSandbox({ port: 0, stateDir });
    const me = await post<{ ok: boolean }>(sandbox, '/botchat/bot1000000001:SANDBOX-demo-bot-token-aaaaaaaaaaaaaaa/getMe');
    expect(me.ok).to.equal(true);
  });
});

describe('sandbox — its root page', () => {
  it("lists the people's controls it mounts, each with its method", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const page = await fetch(`${sandbox.url}/`);
      expect(page.headers.get('content-type')).to.match(/^text\/plain/);
      const text = await page.text();
      expect(text).to.include(`POST    ${sandbox.url}/_sandbox/botchat/messages`);
      expect(text).to.include(`GET     ${sandbox.url}/_sandbox/botchat/sent`);
      expect(text).not.to.include('/botchat/:bot/:method');
    } finally {
      await sandbox.close();
    }
  });
});
