import { once } from 'node:events';
import { createSecureServer, type Http2SecureServer, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Authority, ServerCertificate } from './authority.js';

/** The largest payload the push service takes (Apple: 4 KB for a notification). */
const MAX_PAYLOAD_BYTES = 4096;

/** A failure the next push will get, as the vendor's push service answers it. */
export interface PushFailure {
  status: 400 | 403 | 410 | 429;
  reason: string;
}

/**
 * The vendor's HTTP/2 push service, as far as wallet passes use it: `POST /3/device/<token>` over TLS, the
 * provider authenticated by its pass type certificate (a TLS client certificate of the vendor's authority) whose
 * UID must be the `apns-topic`. Answers like the real one: 200 with `apns-id`; 400 `BadDeviceToken` for a token it
 * never issued; 410 `Unregistered` (with `timestamp`) for a token whose device left; 403 `BadCertificate`; 400
 * `TopicDisallowed`, `PayloadEmpty`; 413 `PayloadTooLarge` past 4 KB; 404 `BadPath`; 429 when throttling. A delivered push reaches the simulated phone holding the token.
 */
export class PushService {
  private readonly server: Http2SecureServer;
  readonly url: Promise<string>;
  /** Tokens issued to devices, and when the device stopped accepting pushes (Unregistered). */
  private readonly tokens = new Map<string, { unregisteredAt: number | null }>();
  private readonly failures: PushFailure[] = [];
  /** Connections the service keeps open; closing the server waits for them otherwise. */
  private readonly sessions = new Set<ServerHttp2Session>();
  /** Every push answered, for the sandbox's controls. */
  readonly answered: Array<{ token: string; topic: string; status: number; reason: string | null }> = [];

  constructor(
    authority: Authority,
    { certPem, keyPem }: ServerCertificate,
    private readonly deliver: (token: string) => void,
  ) {
    this.server = createSecureServer({
      cert: certPem,
      key: keyPem,
      ca: authority.rootPem,
      requestCert: true,
      rejectUnauthorized: false,
      allowHTTP1: false,
    });
    // The answer follows the whole body: its size is checked.
    this.server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => this.answer(stream, headers, Buffer.concat(chunks)));
    });
    this.server.on('session', (session) => {
      this.sessions.add(session);
      session.on('close', () => this.sessions.delete(session));
    });
    this.server.listen(0, '127.0.0.1');
    this.url = once(this.server, 'listening').then(() => `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`);
  }

  issueToken(token: string): void {
    this.tokens.set(token, { unregisteredAt: null });
  }

  /** The device left (its wallet was reset, the app removed): later pushes to its token answer 410. */
  unregister(token: string): void {
    this.tokens.set(token, { unregisteredAt: Date.now() });
  }

  failNext(failure: PushFailure, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(failure);
  }

  private answer(stream: ServerHttp2Stream, headers: Record<string, string | string[] | undefined>, body: Buffer): void {
    const reply = (status: number, reason: string | null, extra: Record<string, unknown> = {}) => {
      this.answered.push({ token, topic, status, reason });
      stream.respond({ ':status': status, 'apns-id': crypto.randomUUID(), ...(reason ? { 'content-type': 'application/json' } : {}) });
      stream.end(reason ? JSON.stringify({ reason, ...extra }) : undefined);
    };
    const path = String(headers[':path'] ?? '');
    const token = path.match(/^\/3\/device\/([^/?]+)$/)?.[1] ?? '';
    const topic = String(headers['apns-topic'] ?? '');
    if (!/^\/3\/device\/[^/?]+$/.test(path)) return reply(404, 'BadPath');
    if (headers[':method'] !== 'POST') return reply(405, 'MethodNotAllowed');
    const socket = stream.session?.socket as TLSSocket | undefined;
    const peer = socket?.getPeerCertificate();
    if (!socket?.authorized || !peer?.subject) return reply(403, 'BadCertificate');
    const uid = (peer.subject as unknown as Record<string, string>).UID;
    if (!topic) return reply(400, 'MissingTopic');
    if (uid !== topic) return reply(400, 'TopicDisallowed');
    if (body.length === 0) return reply(400, 'PayloadEmpty');
    if (body.length > MAX_PAYLOAD_BYTES) return reply(413, 'PayloadTooLarge');
    const failure = this.failures.shift();
    if (failure) return reply(failure.status, failure.reason, failure.status === 410 ? { timestamp: Date.now() } : {});
    const known = this.tokens.get(token);
    if (!known) return reply(400, 'BadDeviceToken');
    if (known.unregisteredAt !== null) return reply(410, 'Unregistered', { timestamp: known.unregisteredAt });
    reply(200, null);
    this.deliver(token);
  }

  close(): void {
    this.server.close();
    for (const session of this.sessions) session.destroy();
  }
}
