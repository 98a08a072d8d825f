import { randomBytes, randomInt } from 'node:crypto';
import type { DriverEvents, DriverOutgoing, DriverSocket } from '../../platforms/qrchat/driver.js';

/**
 * An in-process fake of the chat app's servers and of the phones that link devices to them, for the sandbox
 * driver. It follows the protocol's shape: a socket without credentials gets a series of QR refs (the first
 * lasts 60 s, the next ones 20 s) and is closed with 408 when they run out; a scan pairs, saves the credentials
 * and forces a restart (515); a socket with credentials opens, or is closed with 401 once the phone logged
 * the device out; the same credentials connecting twice close the older socket (440).
 */
export interface QrTimings {
  firstQrMs: number;
  nextQrMs: number;
  refsPerConnection: number;
  handshakeMs: number;
}
export const DEFAULT_TIMINGS: QrTimings = { firstQrMs: 60_000, nextQrMs: 20_000, refsPerConnection: 6, handshakeMs: 10 };

/** What the fake servers remember of a linked device, saved by the driver through its AuthStore. */
export interface FakeCreds {
  deviceId: string;
  phoneNumber: string;
  noiseKey: string;
  identityKey: string;
}

/** A message as the recipient's phone shows it. */
export interface ShownMessage {
  id: string;
  /** The sender's number in E.164 digits. */
  from: string;
  kind: DriverOutgoing['kind'];
  text: string | null;
  media: DriverOutgoing['media'];
  reactTo: string | null;
  at: string;
  /** The person opened it (a read receipt went to the sender). */
  read: boolean;
}

/** A message a person sent to the number, as a linked device receives it. */
type Incoming = Parameters<FakeConnection['deliver']>[0];

interface Device {
  id: string;
  phoneNumber: string;
  name: string;
  linked: boolean;
  /** What people sent to the number while this device was not connected: it gets them when it connects again. */
  waiting?: Incoming[];
}

/** What the fake servers keep across a restart: the devices linked (a driver resumes with their credentials), the next one's number. */
export interface QrNetworkSnapshot {
  devices: Map<string, Device>;
  nextDevice: number;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ123456789';
const b64 = (bytes: number) => randomBytes(bytes).toString('base64');
const digits = (phone: string) => phone.replace(/\D/g, '');

export class FakeConnection implements DriverSocket {
  qr: { text: string; expiresAt: Date } | null = null;
  code: { code: string; phoneNumber: string } | null = null;
  device: Device | null = null;
  private state: 'linking' | 'open' | 'closed' = 'linking';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly network: FakeQrNetwork,
    private readonly events: DriverEvents,
    private readonly saveCreds: (creds: FakeCreds) => Promise<void>,
  ) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Starts the QR series: ref `index` now, the next one when it expires, 408 after the last. */
  startSeries(index = 0): void {
    const { firstQrMs, nextQrMs, refsPerConnection } = this.network.timings;
    const lifetime = index === 0 ? firstQrMs : nextQrMs;
    this.qr = { text: `2@${b64(36)},${b64(32)},${b64(32)},${b64(16)}`, expiresAt: new Date(Date.now() + lifetime) };
    this.events.qr(this.qr.text, this.qr.expiresAt);
    this.schedule(lifetime, () => (index + 1 < refsPerConnection ? this.startSeries(index + 1) : this.close('qr_timeout')));
  }

  openAs(device: Device): void {
    this.device = device;
    this.state = 'open';
    this.events.open({ deviceId: device.id, phoneNumber: device.phoneNumber, name: device.name });
    const waiting = device.waiting ?? [];
    device.waiting = [];
    for (const message of waiting) this.deliver(message);
  }

  /** The phone scanned the QR or entered the code: the link is made, then the servers force a restart. */
  async pair(phoneNumber: string, name: string): Promise<Device> {
    clearTimeout(this.timer);
    this.qr = null;
    this.code = null;
    this.events.pairing();
    const device = this.network.link(phoneNumber, name);
    await this.saveCreds({ deviceId: device.id, phoneNumber: device.phoneNumber, noiseKey: b64(32), identityKey: b64(32) });
    this.close('restart_required');
    return device;
  }

  receipt(id: string, status: 'delivered' | 'read'): void {
    if (this.state === 'open') this.events.receipt({ id, status, at: new Date() });
  }

  /** `sentAt` (ISO, as kept across a restart): when the person sent it, for a message the phone kept. */
  deliver(message: { id: string; from: string; fromName: string | null; text: string; sentAt?: string }): void {
    if (this.state === 'open') this.events.message({ ...message, sentAt: message.sentAt ? new Date(message.sentAt) : new Date() });
  }

  close(reason: Parameters<DriverEvents['closed']>[0]): void {
    if (this.state === 'closed') return;
    clearTimeout(this.timer);
    this.state = 'closed';
    this.network.forget(this);
    if (reason !== 'ended') this.events.closed(reason);
  }

  private schedule(ms: number, then: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(then, ms);
    this.timer.unref();
  }

  // DriverSocket

  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (this.state !== 'linking') throw new Error('a pairing code is only for a socket that is not paired');
    const code = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
    this.code = { code, phoneNumber: digits(phoneNumber) };
    // The code stays valid as long as the QR series would have lasted; the QR refs themselves stop.
    const { firstQrMs, nextQrMs, refsPerConnection } = this.network.timings;
    this.qr = null;
    this.schedule(firstQrMs + (refsPerConnection - 1) * nextQrMs, () => this.close('qr_timeout'));
    return `${code.slice(0, 4)}-${code.slice(4)}`;
  }

  async profile() {
    if (!this.device) throw new Error('the socket is not paired');
    return { name: this.device.name, about: 'Hey there! I am using the sandbox chat app.', pictureUrl: null };
  }

  async send(message: DriverOutgoing): Promise<void> {
    if (this.state !== 'open' || !this.device) throw new Error('the socket is not open');
    this.network.relay(this.device.phoneNumber, message);
  }

  async logout(): Promise<void> {
    if (this.device) this.device.linked = false;
    this.close('logged_out');
  }

  end(): void {
    this.close('ended');
  }
}

export class FakeQrNetwork {
  private readonly connections = new Set<FakeConnection>();
  private readonly devices: Map<string, Device>;
  private nextDevice: number;
  /** What each number's phone shows of the messages linked devices sent to it, by number (E.164 digits). */
  private readonly phones = new Map<string, ShownMessage[]>();

  /** Its own copy: a test may shorten one sandbox's timings without touching another's. */
  readonly timings: QrTimings;

  constructor(timings: Partial<QrTimings> = {}, restored?: QrNetworkSnapshot) {
    this.timings = { ...DEFAULT_TIMINGS, ...timings };
    this.devices = restored?.devices ?? new Map();
    this.nextDevice = restored?.nextDevice ?? 1;
  }

  snapshot(): QrNetworkSnapshot {
    return { devices: this.devices, nextDevice: this.nextDevice };
  }

  /** A socket from a driver: with credentials it resumes (or learns it was logged out), without it links. */
  connect(creds: FakeCreds | null, events: DriverEvents, saveCreds: (creds: FakeCreds) => Promise<void>): FakeConnection {
    const connection = new FakeConnection(this, events, saveCreds);
    this.connections.add(connection);
    const handshake = setTimeout(() => {
      if (!creds) return connection.code ? undefined : connection.startSeries();
      const device = this.devices.get(creds.deviceId);
      if (!device?.linked) return connection.close('logged_out');
      for (const other of this.connections) if (other !== connection && other.device?.id === device.id) other.close('replaced');
      connection.openAs(device);
    }, this.timings.handshakeMs);
    handshake.unref();
    return connection;
  }

  link(phoneNumber: string, name: string): Device {
    const number = digits(phoneNumber);
    const device: Device = { id: `${number}:${this.nextDevice++}@s.whatsapp.net`, phoneNumber: number, name, linked: true };
    this.devices.set(device.id, device);
    return device;
  }

  forget(connection: FakeConnection): void {
    this.connections.delete(connection);
  }

  /** A person scans a QR with the phone of `phoneNumber` (Linked devices → Link a device). */
  async scan(qr: string, phoneNumber: string, name: string): Promise<Device | 'expired' | 'unknown'> {
    for (const connection of this.connections) {
      if (connection.qr?.text !== qr) continue;
      if (connection.qr.expiresAt.getTime() <= Date.now()) return 'expired';
      return connection.pair(phoneNumber, name);
    }
    return 'unknown';
  }

  /** A person types a pairing code on the phone the code was asked for. */
  async enterCode(code: string, phoneNumber: string, name: string): Promise<Device | 'unknown'> {
    const wanted = code.replace(/-/g, '').toUpperCase();
    for (const connection of this.connections) {
      if (connection.code?.code === wanted && connection.code.phoneNumber === digits(phoneNumber))
        return connection.pair(phoneNumber, name);
    }
    return 'unknown';
  }

  /**
   * A person writes from `from` to the number `to`: every open linked device of `to` receives it now (answered:
   * how many), and every other device linked to it when it connects again, as the phone keeps it for them.
   */
  send(to: string, from: string, fromName: string | null, text: string): number {
    const message: Incoming = {
      id: `3EB0${randomBytes(10).toString('hex').toUpperCase()}`,
      from: digits(from),
      fromName,
      text,
      sentAt: new Date().toISOString(),
    };
    const open = [...this.connections].filter((connection) => connection.isOpen && connection.device?.phoneNumber === digits(to));
    for (const connection of open) connection.deliver(message);
    for (const device of this.devices.values()) {
      if (device.linked && device.phoneNumber === digits(to) && !open.some((connection) => connection.device === device))
        (device.waiting ??= []).push(message);
    }
    return open.length;
  }

  /** A linked device of `from` sends: the recipient's phone shows it once per message id, as the protocol's devices do. */
  relay(from: string, message: DriverOutgoing): void {
    const shown = this.phones.get(message.to) ?? [];
    this.phones.set(message.to, shown);
    if (shown.some((m) => m.id === message.id && m.from === from)) return;
    const { id, kind, text, media, reactTo } = message;
    shown.push({ id, from, kind, text, media, reactTo, at: new Date().toISOString(), read: false });
    this.receipt(from, id, 'delivered');
  }

  /** The person of `phoneNumber` opens the chat with `from`: what it sent is read, and its devices are told. */
  read(phoneNumber: string, from: string): number {
    const unread = this.received(phoneNumber).filter((m) => m.from === digits(from) && !m.read);
    for (const message of unread) {
      message.read = true;
      this.receipt(message.from, message.id, 'read');
    }
    return unread.length;
  }

  /** A receipt goes to every open linked device of the sender's number. */
  private receipt(from: string, id: string, status: 'delivered' | 'read'): void {
    for (const connection of this.connections)
      if (connection.isOpen && connection.device?.phoneNumber === from) connection.receipt(id, status);
  }

  /** The messages the phone of `phoneNumber` received from linked devices, oldest first. */
  received(phoneNumber: string): ShownMessage[] {
    return this.phones.get(digits(phoneNumber)) ?? [];
  }

  /** The phone of `phoneNumber` logs out its linked devices: their sockets close with 401. */
  logOut(phoneNumber: string): number {
    let count = 0;
    for (const device of this.devices.values()) {
      if (device.phoneNumber !== digits(phoneNumber) || !device.linked) continue;
      device.linked = false;
      count++;
      for (const connection of [...this.connections]) if (connection.device?.id === device.id) connection.close('logged_out');
    }
    return count;
  }

  linkedDevices(phoneNumber: string): string[] {
    return [...this.devices.values()].filter((d) => d.linked && d.phoneNumber === digits(phoneNumber)).map((d) => d.id);
  }

  /** The sandbox stops: the servers go away under every socket, whose driver connects again later. */
  close(): void {
    for (const connection of [...this.connections]) connection.close('connection_lost');
  }
}

/** The network of each running sandbox, by its URL: the sandbox driver of the same process finds it here. */
const networks = new Map<string, FakeQrNetwork>();
export const attachQrNetwork = (url: string, network: FakeQrNetwork) => void networks.set(url, network);
export const detachQrNetwork = (url: string) => {
  networks.get(url)?.close();
  networks.delete(url);
};
export const qrNetworkAt = (url: string) => networks.get(url);
