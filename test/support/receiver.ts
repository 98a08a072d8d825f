import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { testCertificate } from './tls.js';
import { until } from './wait.js';

export interface Received {
  /** The request's path (and query), below the inbox's own path. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as it arrived, for signature checks. */
  rawBody: string;
  at: number;
  /** The sender's port: which of its connections carried the request. */
  senderPort: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the connection is held until the sender gives up). */
  hang?: boolean;
}

/** An outgoing webhook as a receiver reads it. */
export interface DeliveredEvent {
  event: string;
  ownerId: string;
  profileId: string | null;
  data: any;
}

/** The requests sent to one URL (and the paths below it), and how that URL answers them. */
export class Inbox {
  readonly received: Received[] = [];
  reply: (request: Received) => Reply = () => ({ status: 200 });

  constructor(readonly url: string) {}

  /** Resolves with the first `count` requests once that many have arrived. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    await until(() => this.received.length, { done: (arrived) => arrived >= count, what: `${count} requests at ${this.url}`, timeoutMs });
    return this.received.slice(0, count);
  }

  /** Every body received, read as the webhook envelope it is. */
  events(): DeliveredEvent[] {
    return this.received.map((request) => JSON.parse(request.rawBody) as DeliveredEvent);
  }
}

/**
 * The inbox's answer. A reply that throws answers 500 with the error: a late delivery must never fail whichever
 * test runs when it arrives.
 */
function answer(inbox: Inbox, request: Received): Reply {
  try {
    return inbox.reply(request);
  } catch (error) {
    return { status: 500, body: `the test's reply failed: ${(error as Error).message}` };
  }
}

/**
 * A real HTTPS endpoint on 127.0.0.1 (the tests' certificate), recording every request it receives. Each
 * `inbox()` is a path of its own: a test that sends its hooks there never sees another test's deliveries, not
 * even late ones. A request to no inbox's path is recorded by the receiver itself.
 */
export class Receiver extends Inbox {
  private readonly inboxes = new Map<string, Inbox>();

  private constructor(
    private readonly server: Server,
    url: string,
    readonly caFile: string,
  ) {
    super(url);
  }

  static async start(): Promise<Receiver> {
    const { key, cert, caFile } = await testCertificate();
    let receiver: Receiver | undefined;
    const server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const [inbox, path] = receiver!.route(req.url ?? '');
        const request: Received = {
          path,
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
          senderPort: req.socket.remotePort ?? 0,
        };
        inbox.received.push(request);
        const reply = answer(inbox, request);
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

  /** A new path of the receiver, for one test. */
  inbox(): Inbox {
    const name = randomBytes(6).toString('hex');
    const inbox = new Inbox(`${this.url}/${name}`);
    this.inboxes.set(name, inbox);
    return inbox;
  }

  private route(url: string): [Inbox, string] {
    const [, first, rest] = /^\/([^/?]*)(.*)$/.exec(url) ?? [];
    const inbox = first === undefined ? undefined : this.inboxes.get(first);
    return inbox ? [inbox, rest || '/'] : [this, url];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
