/**
 * `qrchat` has no HTTP API: a linked-device session of the chat app's multi-device web protocol is a long-lived
 * socket. This file is the seam between the service and whatever speaks that protocol. The service ships one
 * driver, the sandbox's (src/sandbox/qrchat/driver.ts: an in-process fake of the chat app's servers and of the
 * people's phones). A real one (a wrapper around an unofficial library such as Baileys) needs the chat app's
 * servers, which this project cannot reach, so none is bundled: it plugs in by implementing `QrchatDriver` and
 * being named in QRCHAT_DRIVER (see settings.ts). Its mapping is direct: `connection.update` {qr} / {connection: 'open'} / {lastDisconnect}
 * become the events below, `creds.update` and the Signal key store go through `AuthStore`, and
 * `messages.upsert` becomes `message`, `message-receipt.update` becomes `receipt`.
 */

/**
 * Where a session keeps what it must not lose: the credentials (identity, noise and signed pre-keys, the paired
 * device) and the Signal key store (pre-keys, sessions, sender keys, app-state keys). The service keeps both
 * encrypted in its database, never in files. Values must be JSON-safe (a library's Buffers go through its
 * own JSON replacer before they get here).
 */
export interface AuthStore {
  readCreds(): Promise<unknown | null>;
  writeCreds(creds: unknown): Promise<void>;
  readKeys(type: string, ids: string[]): Promise<Record<string, unknown>>;
  /** `null` deletes a key. */
  writeKeys(data: Record<string, Record<string, unknown | null>>): Promise<void>;
}

/** Who the session is once paired: the linked device, its phone's number and the profile name on the phone. */
export interface PairedDevice {
  /** The device's own id, e.g. `4915112345678:7@s.whatsapp.net`. */
  deviceId: string;
  /** The number in E.164 digits, without `+`. */
  phoneNumber: string;
  name: string;
}

/** A message a person sent to the paired number. */
export interface DriverMessage {
  id: string;
  /** The sender's number in E.164 digits. */
  from: string;
  fromName: string | null;
  text: string;
  sentAt: Date;
}

/**
 * Why a socket closed, with the protocol's status codes: `logged_out` 401 (the phone removed the device: the
 * credentials are void), `replaced` 440 (the same credentials connected elsewhere), `restart_required` 515 (sent
 * right after a scan: connect again with the saved credentials), `qr_timeout` 408 (the QR refs ran out: a new
 * connection starts a new series), `bad_session` 500, `connection_lost` (network), `ended` (we closed it).
 */
export type CloseReason = 'logged_out' | 'replaced' | 'restart_required' | 'qr_timeout' | 'bad_session' | 'connection_lost' | 'ended';

/** What a socket reports, in order. Listeners return nothing: the session manager queues its own work. */
export interface DriverEvents {
  /** A QR string to show; it stops being accepted at `expiresAt` (the first lasts about 60 s, the next ones 20 s). */
  qr(text: string, expiresAt: Date): void;
  /** The QR was scanned or the code entered: the devices are finishing the link. */
  pairing(): void;
  open(device: PairedDevice): void;
  message(message: DriverMessage): void;
  /** A message this device sent reached the recipient's phone (`delivered`) or was opened there (`read`). */
  receipt(receipt: { id: string; status: 'delivered' | 'read'; at: Date }): void;
  closed(reason: CloseReason): void;
}

/**
 * A message the linked device sends. Its id is the sender's to choose, as the protocol has it (the libraries'
 * `generateMessageID()`, passed as `messageId`): the recipient's devices keep one message per id, so sending the
 * same id again after a lost answer or a crash never shows the person a second message.
 */
export interface DriverOutgoing {
  id: string;
  /** The recipient's number in E.164 digits. */
  to: string;
  kind: 'text' | 'image' | 'document' | 'audio' | 'video' | 'reaction';
  /** The text, a file's caption, or a reaction's emoji. */
  text: string | null;
  /** The file, fetched and uploaded by the driver the way the protocol carries media. */
  media: { url: string; mimeType: string | null; fileName: string | null } | null;
  /** For a reaction: the id of the message reacted to. */
  reactTo: string | null;
}

export interface DriverSocket {
  /** Pairing by code instead of QR: the 8-character code (`ABCD-EFGH`) the user types on the phone. */
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** The paired account's profile as the chat app shows it now. */
  profile(): Promise<{ name: string; about: string | null; pictureUrl: string | null }>;
  /** Sends a message from the paired number; fails (and sends nothing) while the socket is not open. */
  send(message: DriverOutgoing): Promise<void>;
  /** Unlinks the device at the chat app (the phone no longer lists it); the socket then closes (`logged_out`). */
  logout(): Promise<void>;
  /** Closes the socket and keeps the credentials (`ended`, reported to nobody). */
  end(): void;
}

export interface QrchatDriver {
  readonly name: string;
  /** Opens a socket: with saved credentials it resumes the session, without them it starts a QR series. */
  connect(auth: AuthStore, events: DriverEvents): Promise<DriverSocket>;
}
