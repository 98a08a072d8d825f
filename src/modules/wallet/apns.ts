import { type ClientHttp2Session, connect, constants } from 'node:http2';

/** What the push service answered one push: its status and, for a refusal, its `reason`. */
export interface PushAnswer {
  status: number;
  reason: string | null;
}

export interface PushCredentials {
  /** The pass type certificate: the vendor authenticates wallet pushes by it (TLS client certificate), not by token. */
  certificatePem: string;
  privateKeyPem: string;
}

const REQUEST_TIMEOUT_MS = 10_000;

/**
 * A client of the vendor's HTTP/2 push service: `POST /3/device/<token>` with `apns-topic` = the pass type and
 * an empty `{}` payload, which makes the device ask the pass web service what changed. One connection per
 * certificate, kept open and shared by every push under it (the service throttles providers that reconnect).
 */
export class PushClient {
  private readonly sessions = new Map<string, ClientHttp2Session>();

  constructor(
    private readonly url: string,
    private readonly caPem: string | null,
  ) {}

  async send(deviceToken: string, topic: string, credentials: PushCredentials, sessionKey: string): Promise<PushAnswer> {
    const session = this.session(sessionKey, credentials);
    return new Promise<PushAnswer>((resolve, reject) => {
      const request = session.request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: `/3/device/${deviceToken}`,
        'apns-topic': topic,
        'content-type': 'application/json',
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.close(constants.NGHTTP2_CANCEL));
      let status = 0;
      const chunks: Buffer[] = [];
      request.on('response', (headers) => {
        status = Number(headers[constants.HTTP2_HEADER_STATUS]);
      });
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let reason: string | null = null;
        if (text) {
          try {
            reason = String((JSON.parse(text) as { reason?: unknown }).reason ?? '') || null;
          } catch {
            reason = null;
          }
        }
        if (status === 0) reject(new Error('the push service closed the stream without an answer'));
        else resolve({ status, reason });
      });
      request.on('error', reject);
      request.end('{}');
    });
  }

  private session(key: string, credentials: PushCredentials): ClientHttp2Session {
    const open = this.sessions.get(key);
    if (open && !open.closed && !open.destroyed) return open;
    const session = connect(this.url, {
      cert: credentials.certificatePem,
      key: credentials.privateKeyPem,
      ...(this.caPem ? { ca: this.caPem } : {}),
    });
    session.on('error', () => session.destroy());
    session.on('close', () => {
      if (this.sessions.get(key) === session) this.sessions.delete(key);
    });
    // An idle connection does not keep the process alive.
    session.unref();
    this.sessions.set(key, session);
    return session;
  }

  close(): void {
    for (const session of this.sessions.values()) session.destroy();
    this.sessions.clear();
  }
}
