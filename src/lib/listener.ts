import pg from 'pg';
import type { Logger } from './logger.js';

/** The `application_name` of a listener's connection once it listens on the channels subscribed before it started. */
export function listeningName(name: string): string {
  return `${name} listening`;
}

/**
 * Hears a listener's notifications: `payload` is the NOTIFY's payload ('' when it had none); `sender`, the backend
 * process that sent it. Called with no channel once it listens and after every reconnection, since notifications
 * sent while it was not listening are gone.
 */
export type Hearer = (channel: string | null, payload?: string, sender?: number) => void;

/** Waits before connecting again after the connection was lost: doubling from 0.5 s up to 15 s. */
const RECONNECT_MS = { first: 500, max: 15_000 };

/**
 * The one LISTEN connection of a process, which comes back. Its users subscribe to their channels on it: the
 * server wakes every listening backend on each NOTIFY, whatever its channel, so a backend per user cost every
 * notifying commit a wake-up per user. Workers poll as well, so a lost connection costs latency, not work; but it
 * would cost it for good if nothing reconnected.
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  /** The channels LISTENed on the connection now. */
  private listened = new Set<string>();
  private readonly hearers = new Map<string, Set<Hearer>>();
  /** Connecting, LISTEN and UNLISTEN, one after the other: each sees the connection the last one left. */
  private serial: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private delay = RECONNECT_MS.first;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    /** Its connection's `application_name` (see `listeningName`), and its name in logs. */
    readonly name: string,
  ) {}

  /**
   * The first connection: its failure is the caller's (a service that cannot reach its database does not start).
   * The connection is named as listening once it listens on every channel subscribed so far.
   */
  start(): Promise<void> {
    return this.inTurn(() => this.connect());
  }

  /** Once a connection or a LISTEN under way is done: what it connected is ended, not left behind. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.inTurn(async () => this.client?.end().catch(() => {}));
  }

  /**
   * `hear` hears `channels` until the returned function is called. On a connected listener this resolves once the
   * connection listens on them (after `hear` was called with no channel); before `start`, or while the connection is
   * lost, at once: `hear` is called with no channel when it connects.
   */
  async listen(channels: string[], hear: Hearer): Promise<() => Promise<void>> {
    for (const channel of channels) {
      const hearers = this.hearers.get(channel) ?? new Set();
      hearers.add(hear);
      this.hearers.set(channel, hearers);
    }
    const unlisten = () => this.inTurn(() => this.unlisten(channels, hear));
    const client = await this.inTurn(async () => {
      if (this.client) await this.listenOn(this.client);
      return this.client;
    }).catch(async (error: unknown) => {
      await unlisten();
      throw error;
    });
    if (client) hear(null);
    return unlisten;
  }

  /**
   * Runs a statement on the listening connection itself: a NOTIFY sent here names this listener's backend as its
   * sender. Fails while the connection is lost.
   */
  async query(text: string, values: unknown[]): Promise<pg.QueryResult> {
    if (!this.client) throw new Error(`${this.name}: the listener is not connected`);
    return this.client.query(text, values);
  }

  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const done = this.serial.then(step);
    this.serial = done.catch(() => {});
    return done;
  }

  private async unlisten(channels: string[], hear: Hearer): Promise<void> {
    const unheard: string[] = [];
    for (const channel of channels) {
      const hearers = this.hearers.get(channel);
      hearers?.delete(hear);
      if (hearers?.size === 0) {
        this.hearers.delete(channel);
        unheard.push(channel);
      }
    }
    const client = this.client;
    for (const channel of unheard) {
      if (!client || !this.listened.delete(channel)) continue;
      // A lost connection listens on nothing any more; the next one listens only on what is still heard.
      await client.query(`UNLISTEN ${channel}`).catch(() => {});
    }
  }

  /** LISTENs on the channels subscribed and not listened on yet, subscriptions made meanwhile included. */
  private async listenOn(client: pg.Client): Promise<void> {
    for (let missing = this.missing(); missing.length > 0; missing = this.missing()) {
      // One round trip for them all.
      await client.query(missing.map((channel) => `LISTEN ${channel}`).join('; '));
      for (const channel of missing) this.listened.add(channel);
    }
  }

  private missing(): string[] {
    return [...this.hearers.keys()].filter((channel) => !this.listened.has(channel));
  }

  private heard(channel: string, payload: string, sender: number): void {
    const hearers = this.hearers.get(channel);
    if (hearers) for (const hear of hearers) hear(channel, payload, sender);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: this.name });
    client.on('notification', (message) => this.heard(message.channel, message.payload ?? '', message.processId));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    this.listened = new Set();
    try {
      await client.connect();
      await this.listenOn(client);
      // Tells the processes looking for listeners (pg_stat_activity) that this one hears every commit from now on.
      await client.query(`SET application_name = ${client.escapeLiteral(listeningName(this.name))}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    this.delay = RECONNECT_MS.first;
    for (const hear of new Set([...this.hearers.values()].flatMap((hearers) => [...hearers]))) hear(null);
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
      this.inTurn(() => this.connect()).catch((error: unknown) => {
        this.logger.warn({ err: error, retryInMs: this.delay }, `${this.name}: reconnecting the listener failed`);
        this.delay = Math.min(this.delay * 2, RECONNECT_MS.max);
        this.scheduleReconnect();
      });
    }, this.delay);
    this.retry.unref();
  }
}
