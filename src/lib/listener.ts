import pg from 'pg';
import type { Logger } from './logger.js';

/** The `application_name` of a listener's connection once it listens on all its channels. */
export function listeningName(name: string): string {
  return `${name} listening`;
}

/** Waits before connecting again after the connection was lost: doubling from 0.5 s up to 15 s. */
const RECONNECT_MS = { first: 500, max: 15_000 };

/**
 * A LISTEN connection that comes back. Workers poll as well, so a lost connection costs latency, not work;
 * but it would cost it for good if nothing reconnected. After every (re)connection `onNotify` is called once
 * with no channel, since notifications sent while it was away are gone.
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private delay = RECONNECT_MS.first;

  constructor(
    private readonly databaseUrl: string,
    private readonly channels: string[],
    /** `payload` is the NOTIFY's payload ('' when it had none); `sender`, the backend process that sent it. */
    private readonly onNotify: (channel: string | null, payload?: string, sender?: number) => void,
    private readonly logger: Logger,
    private readonly name: string,
  ) {}

  /** The first connection: its failure is the caller's (a service that cannot reach its database does not start). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }

  /**
   * Runs a statement on the listening connection itself: a NOTIFY sent here names this listener's backend as its
   * sender. Fails while the connection is lost.
   */
  async query(text: string, values: unknown[]): Promise<pg.QueryResult> {
    if (!this.client) throw new Error(`${this.name}: the listener is not connected`);
    return this.client.query(text, values);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: this.name });
    client.on('notification', (message) => this.onNotify(message.channel, message.payload ?? '', message.processId));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
      // Tells the processes looking for listeners (pg_stat_activity) that this one hears every commit from now on.
      await client.query(`SET application_name = ${client.escapeLiteral(listeningName(this.name))}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    this.delay = RECONNECT_MS.first;
    this.onNotify(null);
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.stopped) {
      this.logger.debug({ err: error }, `${this.name}: listener closed while stopping`);
      return;
    }
    if (client !== this.client || this.retry) return;
    this.logger.warn({ err: error }, `${this.name}: listener lost; reconnecting`);
    this.client = undefined;
    client.removeAllListeners('end');
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.stopped) return;
      this.connect().catch((error: unknown) => {
        this.logger.warn({ err: error, retryInMs: this.delay }, `${this.name}: reconnecting the listener failed`);
        this.delay = Math.min(this.delay * 2, RECONNECT_MS.max);
        this.scheduleReconnect();
      });
    }, this.delay);
    this.retry.unref();
  }
}
