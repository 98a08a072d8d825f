import { PlatformError } from '../errors.js';
import type { About, AdapterAccount, PlatformAdapter } from '../types.js';
import type { QrchatDriver } from './driver.js';
import { qrchatMessaging } from './messaging.js';

/** The sessions this process holds open, as the session manager (src/modules/connect/qrchat-sessions.ts) lends them. */
export interface LiveSessions {
  profile(accountId: string): Promise<{ name: string; about: string | null; pictureUrl: string | null } | null>;
  /** Unlinks the device at the chat app; false when this process does not hold the session. */
  logout(accountId: string): Promise<boolean>;
}

/**
 * `qrchat`: the chat app through a linked device paired by QR code. An account's credentials row names the
 * paired device and our account (`extra.accountId`); the session's own keys live in `qrchat_sessions`.
 */
export class QrchatAdapter implements PlatformAdapter {
  readonly id = 'qrchat' as const;
  /** A linked device is one session, held for one account. */
  readonly exclusiveIdentity = true;
  readonly lacks = { insights: 'qrchat accounts are paired chat accounts: there is no API with figures behind them.' };
  /** Set by the session manager of this process; null until it starts. */
  live: LiveSessions | null = null;
  /** Sends are queued for the process holding the session (src/modules/messaging/qrchat-outbox.ts). */
  readonly sessionMessaging = qrchatMessaging;

  constructor(readonly driver: QrchatDriver) {}

  /**
   * The profile from the open session when this process holds it; else what pairing recorded (a session is
   * held by one worker process only, and reading the profile needs the socket).
   */
  async about(account: AdapterAccount): Promise<About> {
    const accountId = account.credentials.extra?.accountId ?? '';
    const live = await this.live?.profile(accountId).catch((error: unknown) => {
      throw new PlatformError('transient', `the session could not read the profile: ${(error as Error).message}`);
    });
    const number = account.platformAccountId;
    return {
      platformAccountId: number,
      name: live?.name ?? account.credentials.extra?.name ?? `+${number}`,
      username: null,
      bio: live?.about ?? null,
      url: `https://wa.me/${number}`,
      pictureUrl: live?.pictureUrl ?? null,
      category: null,
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: null,
      platformData: { deviceId: account.credentials.accessToken, sessionOpenHere: Boolean(live) },
    };
  }

  /** Disconnecting unlinks the device where this process holds the session; elsewhere its holder does it. */
  async revoke(account: AdapterAccount): Promise<void> {
    const accountId = account.credentials.extra?.accountId;
    if (accountId) await this.live?.logout(accountId);
  }
}
