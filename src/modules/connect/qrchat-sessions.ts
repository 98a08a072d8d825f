import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LiveSessions, QrchatAdapter } from '../../platforms/qrchat/adapter.js';
import type { CloseReason, DriverEvents, DriverSocket } from '../../platforms/qrchat/driver.js';
import type { Services } from '../../services.js';
import { accountIdsWith } from '../accounts/api.js';
import { failQueuedSends, type QueuedSend, queuedSends, settleSend } from '../messaging/qrchat-outbox.js';
import { markLoggedOut, markPaired, markResuming, markWindowExpired } from './qrchat-accounts.js';
import { receiveDriverMessage, receiveDriverReceipt } from './qrchat-inbound.js';
import { releaseSessions, SealedAuthStore, sessions, writeSession } from './qrchat-store.js';
import type { SessionRow } from './rows.js';

export const OPEN_JOB = 'qrchat.open';
/** A holder renews its leases well inside their length; a dead holder's sessions are taken over after it. */
const LEASE_MS = 60_000;
const RENEW_MS = 15_000;
const SWEEP_MS = 30_000;
const TICK_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

interface Live {
  accountId: string;
  generation: number;
  socket: DriverSocket | null;
  /** Events of one session are handled one after the other, in the order the socket reported them. */
  queue: Promise<void>;
  /** Waiting for a scan or a code (a pairing window is open), as opposed to a paired session. */
  pairing: boolean;
  /** Pairing by code on this number (E.164) instead of by QR. */
  codeNumber: string | null;
  codeRequested: boolean;
  /** We are ending it ourselves: the close that follows is ours, not the phone's. */
  ending: boolean;
  failures: number;
  timer?: NodeJS.Timeout;
}

const lease = () => new Date(Date.now() + LEASE_MS);

/**
 * The linked-device sessions of the qrchat accounts, held by worker processes (one holder per session, by a
 * lease in `qrchat_sessions`). It opens a session when a pairing window starts (job `qrchat.open`), resumes
 * paired sessions nobody holds, turns the socket's events into the account's state and `message.received`,
 * and lets go of everything once this process stops running jobs (its shutdown).
 */
export class QrchatSessions implements LiveSessions {
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly live = new Map<string, Live>();
  private ticker: NodeJS.Timeout | undefined;
  private active = false;
  private stopped = false;
  private busy = false;
  /** The tick running, if any: stopping waits for it, so a sweep under way cannot take a session after the release. */
  private ticking: Promise<void> = Promise.resolve();
  private lastRenew = 0;
  private lastSweep = 0;
  /** Sends handed to a session's queue and not settled yet (by account and message id). */
  private readonly sending = new Set<string>();

  constructor(
    private readonly services: Services,
    private readonly adapter: QrchatAdapter,
  ) {}

  start(): void {
    this.adapter.live = this;
    this.ticker = setInterval(() => {
      if (!this.busy) this.ticking = this.tick();
    }, TICK_MS);
    this.ticker.unref();
  }

  /** Sessions live while this process runs jobs: from the scheduler's start until its stop at shutdown. */
  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    if (!this.services.scheduler.isProcessing()) {
      if (this.active) void this.stop();
      return;
    }
    this.active = true;
    this.busy = true;
    try {
      const now = Date.now();
      if (now - this.lastRenew >= RENEW_MS) {
        this.lastRenew = now;
        await this.renew();
      }
      if (now - this.lastSweep >= SWEEP_MS) {
        this.lastSweep = now;
        await this.sweep();
      }
      await this.drain();
    } catch (error) {
      this.services.logger.warn({ err: error }, 'qrchat: renewing or resuming sessions failed');
    } finally {
      this.busy = false;
    }
  }

  /** Job `qrchat.open`: a new pairing window. Takes the session over from any holder (its generation is old). */
  async open(accountId: string): Promise<void> {
    if (this.stopped) return;
    const [row] = await sessions(this.services.db)
      .where({ accountId })
      .update({ heldBy: this.holder, leaseExpiresAt: lease(), updatedAt: new Date() })
      .returning('*');
    if (row) this.take(row);
  }

  private take(row: SessionRow): void {
    this.drop(row.accountId);
    const pairing = row.pairingExpiresAt !== null;
    const live: Live = {
      accountId: row.accountId,
      generation: row.generation,
      socket: null,
      queue: Promise.resolve(),
      pairing,
      codeNumber: pairing ? row.phoneNumber : null,
      codeRequested: false,
      ending: false,
      failures: 0,
    };
    this.live.set(row.accountId, live);
    if (pairing) {
      live.timer = setTimeout(() => this.enqueue(live, () => this.expire(live)), Math.max(0, row.pairingExpiresAt!.getTime() - Date.now()));
      live.timer.unref();
    }
    this.connect(live);
  }

  private current(live: Live): boolean {
    return !this.stopped && this.live.get(live.accountId) === live;
  }

  private enqueue(live: Live, work: () => Promise<void>): void {
    live.queue = live.queue
      .then(async () => {
        if (this.current(live)) await work();
      })
      .catch((error: unknown) => {
        this.services.logger.warn({ err: error, accountId: live.accountId }, 'qrchat: handling a session event failed');
      });
  }

  private write(live: Live, fields: Partial<SessionRow>): Promise<boolean> {
    return writeSession(this.services.db, { accountId: live.accountId, generation: live.generation, holder: this.holder }, fields);
  }

  private connect(live: Live): void {
    this.enqueue(live, async () => {
      if (live.pairing) await this.write(live, { state: 'connecting' });
      const auth = new SealedAuthStore(this.services.db, this.services.secrets, {
        accountId: live.accountId,
        generation: live.generation,
        holder: this.holder,
      });
      try {
        live.socket = await this.adapter.driver.connect(auth, this.events(live));
      } catch (error) {
        this.services.logger.warn({ err: error, accountId: live.accountId }, 'qrchat: opening the session failed; trying again');
        this.reconnectLater(live);
      }
    });
  }

  private reconnectLater(live: Live): void {
    live.failures++;
    const timer = setTimeout(
      () => {
        if (this.current(live)) this.connect(live);
      },
      Math.min(RECONNECT_MAX_MS, 500 * 2 ** live.failures),
    );
    timer.unref();
  }

  private events(live: Live): DriverEvents {
    return {
      qr: (text, expiresAt) =>
        this.enqueue(live, async () => {
          if (!live.codeNumber) {
            await this.write(live, { state: 'qr_pending', qr: text, qrExpiresAt: expiresAt });
          } else if (!live.codeRequested && live.socket) {
            // Code pairing is asked for once the socket is up (the libraries' own advice: on the first QR).
            live.codeRequested = true;
            const code = await live.socket.requestPairingCode(live.codeNumber);
            await this.write(live, { state: 'code_pending', pairingCode: code, qr: null, qrExpiresAt: null });
          }
        }),
      pairing: () =>
        this.enqueue(live, async () => {
          await this.write(live, { state: 'pairing', qr: null, qrExpiresAt: null, pairingCode: null });
        }),
      open: (device) =>
        this.enqueue(live, async () => {
          live.failures = 0;
          const outcome = await markPaired(this.services, live.accountId, device);
          // The number is held already (by another account or owner), or this one was disconnected meanwhile: unlink the new device.
          if (outcome !== 'connected') return this.end(live, 'disconnected', true);
          clearTimeout(live.timer);
          live.pairing = false;
          await this.write(live, {
            state: 'open',
            qr: null,
            qrExpiresAt: null,
            pairingCode: null,
            pairingExpiresAt: null,
            phoneNumber: `+${device.phoneNumber}`,
          });
        }),
      message: (message) => this.enqueue(live, () => receiveDriverMessage(this.services, live.accountId, message)),
      receipt: (receipt) => this.enqueue(live, () => receiveDriverReceipt(this.services, live.accountId, receipt)),
      closed: (reason) => this.enqueue(live, () => this.closed(live, reason)),
    };
  }

  private async closed(live: Live, reason: CloseReason): Promise<void> {
    live.socket = null;
    if (live.ending || reason === 'ended') return;
    if (reason === 'restart_required' || (reason === 'qr_timeout' && live.pairing)) return this.connect(live);
    if (reason === 'connection_lost') return this.reconnectLater(live);
    if (reason === 'replaced') {
      // Another holder of ours took the session over: it is theirs now. Anyone else: the phone's choice.
      const row = await sessions(this.services.db).where({ accountId: live.accountId }).first('heldBy', 'generation');
      if (row && (row.heldBy !== this.holder || row.generation !== live.generation)) return this.drop(live.accountId);
    }
    const detail =
      reason === 'replaced'
        ? 'The session was opened by another client with the same device, which replaced it.'
        : reason === 'bad_session'
          ? "The session's keys are no longer accepted by the chat app."
          : 'The phone logged this linked device out.';
    if (!live.pairing) {
      await markLoggedOut(this.services.db, live.accountId, detail);
      await failQueuedSends(this.services.db, live.accountId, `Not sent: ${detail} Pair the account again.`);
    }
    await this.end(live, 'logged_out');
  }

  /**
   * Sends the messages queued for the paired sessions held here, each in its session's order; one whose socket is
   * not open yet stays queued for the next tick. Sent again after a crash, a message keeps its id: one message.
   */
  async drain(): Promise<void> {
    const paired = [...this.live.values()].filter((live) => live.socket && !live.pairing && !live.ending);
    const due = await queuedSends(
      this.services.db,
      this.holder,
      paired.map((live) => live.accountId),
    );
    for (const send of due) {
      const key = `${send.accountId}:${send.message.id}`;
      const live = this.live.get(send.accountId);
      if (!live || this.sending.has(key)) continue;
      this.sending.add(key);
      this.enqueue(live, () => this.deliver(live, send).finally(() => this.sending.delete(key)));
    }
  }

  private async deliver(live: Live, send: QueuedSend): Promise<void> {
    if (!live.socket || live.pairing) return;
    try {
      await live.socket.send(send.message);
    } catch (error) {
      this.services.logger.warn({ err: error, accountId: live.accountId }, 'qrchat: a send failed; it stays queued');
      return;
    }
    await settleSend(this.services.db, live.accountId, send.message.id, null);
  }

  /** The pairing window ended unscanned: the socket closes, the account says `pairing_expired`. */
  private async expire(live: Live): Promise<void> {
    if (!live.pairing) return;
    await markWindowExpired(this.services.db, live.accountId);
    await this.end(live, 'disconnected');
  }

  /** Closes the socket, forgets the keys (a new pairing is a new device) and lets go of the session. */
  private async end(live: Live, state: 'disconnected' | 'logged_out', logout = false): Promise<void> {
    live.ending = true;
    clearTimeout(live.timer);
    if (logout) await live.socket?.logout().catch(() => {});
    live.socket?.end();
    await this.write(live, {
      state,
      qr: null,
      qrExpiresAt: null,
      pairingCode: null,
      pairingExpiresAt: null,
      authCiphertext: null,
      heldBy: null,
      leaseExpiresAt: null,
    });
    if (this.live.get(live.accountId) === live) this.live.delete(live.accountId);
  }

  /** Forgets a session here without a word to the database (its new holder, or a new window, owns it). */
  private drop(accountId: string): void {
    const live = this.live.get(accountId);
    if (!live) return;
    live.ending = true;
    clearTimeout(live.timer);
    live.socket?.end();
    this.live.delete(accountId);
  }

  /** Renews the leases of the sessions held here; lets go of those taken over, logs out those disconnected. */
  private async renew(): Promise<void> {
    if (this.live.size === 0) return;
    const ids = [...this.live.keys()];
    const [rows, disconnected] = await Promise.all([
      sessions(this.services.db).whereIn('accountId', ids).select('accountId', 'generation', 'heldBy') as Promise<
        Array<{ accountId: string; generation: number; heldBy: string | null }>
      >,
      accountIdsWith(this.services.db, ['disconnected']).whereIn('id', ids) as Promise<Array<{ id: string }>>,
    ]);
    for (const live of [...this.live.values()]) {
      const row = rows.find((r) => r.accountId === live.accountId);
      if (!row || row.heldBy !== this.holder || row.generation !== live.generation) this.drop(live.accountId);
      else if (disconnected.some(({ id }) => id === live.accountId)) this.enqueue(live, () => this.end(live, 'logged_out', true));
    }
    await sessions(this.services.db)
      .whereIn('accountId', [...this.live.keys()])
      .where({ heldBy: this.holder })
      .update({ leaseExpiresAt: lease() });
  }

  /** Resumes sessions nobody holds (this process just started, or their holder died); ends windows gone by. */
  async sweep(): Promise<void> {
    const db = this.services.db;
    const now = new Date();
    const orphans = (await db('qrchatSessions as s')
      .where((q) => q.whereNull('s.heldBy').orWhere('s.leaseExpiresAt', '<', now))
      .where((q) =>
        q
          .where((p) => p.whereIn('s.accountId', accountIdsWith(db, ['connected'])).whereNotNull('s.authCiphertext'))
          .orWhere((p) => p.whereIn('s.accountId', accountIdsWith(db, ['pending'])).whereNotNull('s.pairingExpiresAt')),
      )
      .limit(100)
      .select('s.accountId', 's.pairingExpiresAt')) as Array<Pick<SessionRow, 'accountId' | 'pairingExpiresAt'>>;
    for (const orphan of orphans) {
      const claim = sessions(db)
        .where({ accountId: orphan.accountId })
        .where((q) => q.whereNull('heldBy').orWhere('leaseExpiresAt', '<', now));
      if (orphan.pairingExpiresAt && orphan.pairingExpiresAt <= now) {
        const ended = await claim.update({
          state: 'disconnected',
          qr: null,
          pairingCode: null,
          pairingExpiresAt: null,
          authCiphertext: null,
          heldBy: null,
          updatedAt: now,
        });
        if (ended) await markWindowExpired(db, orphan.accountId);
        continue;
      }
      const [row] = await claim.update({ heldBy: this.holder, leaseExpiresAt: lease(), updatedAt: now }).returning('*');
      if (row && !this.stopped) this.take(row);
    }
  }

  // LiveSessions, for the adapter's about and revoke.

  async profile(accountId: string) {
    const live = this.live.get(accountId);
    return live?.socket && !live.pairing ? live.socket.profile() : null;
  }

  async logout(accountId: string): Promise<boolean> {
    const live = this.live.get(accountId);
    if (!live) return false;
    this.enqueue(live, () => this.end(live, 'logged_out', true));
    await live.queue;
    return true;
  }

  /**
   * This process stops running jobs (its shutdown, as the connect area's worker): every socket ends and the
   * sessions are let go of at once, so that the next process to run jobs resumes them when it starts rather than
   * once their leases run out. Until a session is open again its account says so; the phone keeps what people
   * send to the number meanwhile, and gives it to the device when it is back.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.ticker);
    const paired = [...this.live.values()].filter((live) => !live.pairing).map((live) => live.accountId);
    for (const accountId of [...this.live.keys()]) this.drop(accountId);
    if (this.adapter.live === this) this.adapter.live = null;
    await this.ticking;
    try {
      await releaseSessions(this.services.db, this.holder);
      await markResuming(this.services.db, paired);
    } catch (error) {
      this.services.logger.warn({ err: error }, 'qrchat: letting go of the sessions failed; they resume once their leases run out');
    }
  }
}
