import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface Received {
  /** The request's path (and query). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as it arrived, for signature checks. */
  rawBody: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the connection is held until the sender gives up). */
  hang?: boolean;
}

/** A real HTTPS endpoint on 127.0.0.1 with a self-signed certificate, recording every request it receives. */
export class Receiver {
  readonly received: Received[] = [];
  reply: (request: Received) => Reply = () => ({ status: 200 });
  private waiters: Array<() => void> = [];

  private constructor(private readonly server: Server, readonly url: string, readonly caFile: string) {}

  static async start(): Promise<Receiver> {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048, days: 2, algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
    } as never);
    const dir = mkdtempSync(join(tmpdir(), 'socialgate-receiver-'));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, pems.cert);
    let receiver: Receiver | undefined;
    const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: Received = { path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        receiver!.received.push(request);
        for (const wake of receiver!.waiters.splice(0)) wake();
        const reply = receiver!.reply(request);
        if (reply.hang) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    receiver = new Receiver(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caFile);
    return receiver;
  }

  /** Resolves when `count` requests have arrived in all. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${this.received.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
    return this.received.slice(0, count);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
