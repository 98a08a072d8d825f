import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { adminUrl, TEMPLATE_DATABASE, withDatabase } from '../fixtures.js';
import { freePort } from '../support/net.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Sends bytes on a fresh connection and reads everything until the server closes it. */
async function exchange(port: number, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(request);
  await once(socket, 'close');
  const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('npm start — requests Node cannot parse are still answered as problems', () => {
  let service: ChildProcess;
  let port: number;
  let dataDir: string;
  before(async function () {
    this.timeout(60_000);
    const database = `t_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), database, TEMPLATE_DATABASE);
    port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'socialgate-main-'));
    service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        SOCIALGATE_ROLE: 'api',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: withDatabase(adminUrl(), database),
        DATA_DIR: dataDir,
        SANDBOX_PORT: '0',
        LOG_LEVEL: 'silent',
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      },
    });
    let output = '';
    service.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    while (!output.includes('is running')) {
      if (service.exitCode !== null) throw new Error(`the service exited with ${service.exitCode}`);
      await Promise.race([once(service.stdout!, 'data'), once(service, 'exit')]);
    }
  });
  after(async () => {
    if (service.exitCode === null) {
      service.kill('SIGTERM');
      await once(service, 'exit');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an oversized request line is 431 headers_too_large as problem+json', async () => {
    const response = await exchange(port, `GET /health?padding=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(response.status).to.equal(431);
    expect(response.headers['content-type']).to.equal('application/problem+json');
    expect(response.headers['x-request-id']).to.match(/^req_[0-9a-z]{26}$/);
    expect(JSON.parse(response.body)).to.deep.include({
      type: 'https://socialgate.dev/problems/headers_too_large',
      status: 431,
      code: 'headers_too_large',
      requestId: response.headers['x-request-id'],
    });
  });

  it('a message that is not HTTP is 400 malformed_request as problem+json', async () => {
    const response = await exchange(port, 'HELLO THERE\r\n\r\n');
    expect(response.status).to.equal(400);
    expect(JSON.parse(response.body)).to.deep.include({ status: 400, code: 'malformed_request' });
  });
});
