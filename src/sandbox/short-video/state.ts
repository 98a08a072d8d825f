import { randomBytes } from 'node:crypto';
import { GrantNumbers, withGrants } from '../shared-grants.js';
import { DEMO_USER, SANDBOX_APP } from './demo.js';

export interface User {
  openId: string;
  unionId: string;
  displayName: string;
  username: string;
  bio: string;
  followers: number;
  following: number;
  videos: number;
  verified: boolean;
}
/** One authorization of the app by one user: removing the app revokes it, and every token it issued. */
export interface Grant {
  openId: string;
  scopes: string[];
  revoked: boolean;
}
export interface Code {
  redirectUri: string;
  challenge: string | null;
  grant: Grant;
  used: boolean;
  expiresAt: number;
}

type Issued = { grant: Grant; expiresAt: number };

/**
 * What Login Kit keeps across a restart. Grants are listed once and named by their index, so that a token and its
 * refresh token still share one grant (removing the app revokes both) after they are read back.
 */
export interface LoginSnapshot {
  users: Map<string, User>;
  grants: Grant[];
  codes: Map<string, Omit<Code, 'grant'> & { grant: number }>;
  accessTokens: Map<string, { grant: number; expiresAt: number }>;
  refreshTokens: Map<string, { grant: number; expiresAt: number }>;
  settings: ShortVideoState['settings'];
}

/** Login Kit's memory: users, authorization codes, tokens (access 2 h, refresh 180 d, rotated on each use). */
export class ShortVideoState {
  readonly users = new Map<string, User>();
  readonly codes = new Map<string, Code>();
  readonly accessTokens = new Map<string, Issued>();
  readonly refreshTokens = new Map<string, Issued>();
  readonly settings = {
    accessTokenTtlSeconds: 7200,
    refreshTokenTtlSeconds: 180 * 86400,
    webhookUrl: null as string | null,
    rateLimited: false,
    /** How long a post takes to process once its media arrived; `unaudited`: the app may post SELF_ONLY only. */
    processingMs: 0,
    unaudited: false,
    /** The domains verified for the app in the developer portal (URL properties): photos are pulled only from them. */
    verifiedDomains: [] as string[],
  };
  readonly app = SANDBOX_APP;

  /** From what it kept before a restart, else with the demo creator. */
  constructor(restored?: LoginSnapshot) {
    if (!restored) {
      this.addUser(DEMO_USER);
      return;
    }
    const { grants } = restored;
    for (const [openId, user] of restored.users) this.users.set(openId, user);
    for (const [value, code] of withGrants(restored.codes, grants)) this.codes.set(value, code);
    for (const [value, issued] of withGrants(restored.accessTokens, grants)) this.accessTokens.set(value, issued);
    for (const [value, issued] of withGrants(restored.refreshTokens, grants)) this.refreshTokens.set(value, issued);
    Object.assign(this.settings, restored.settings);
  }

  snapshot(): LoginSnapshot {
    const numbers = new GrantNumbers<Grant>();
    return {
      users: this.users,
      codes: numbers.named(this.codes),
      accessTokens: numbers.named(this.accessTokens),
      refreshTokens: numbers.named(this.refreshTokens),
      grants: numbers.grants,
      settings: this.settings,
    };
  }

  addUser(input: Partial<Omit<User, 'openId'>> & { openId?: string }): User {
    const id = randomBytes(12).toString('base64url');
    const user: User = {
      openId: input.openId ?? `-000${id}`,
      unionId: input.unionId ?? `union-${id}`,
      displayName: input.displayName ?? 'Sandbox Creator',
      username: input.username ?? `creator.${id.slice(0, 6).toLowerCase()}`,
      bio: input.bio ?? '',
      followers: input.followers ?? 1200,
      following: input.following ?? 85,
      videos: input.videos ?? 42,
      verified: input.verified ?? false,
    };
    this.users.set(user.openId, user);
    return user;
  }

  /** A fresh access and refresh token pair for the grant; the caller forgets the refresh token it replaces. */
  issue(grant: Grant) {
    const accessToken = `act.${randomBytes(30).toString('base64url')}`;
    const refreshToken = `rft.${randomBytes(30).toString('base64url')}`;
    const now = Date.now();
    this.accessTokens.set(accessToken, { grant, expiresAt: now + this.settings.accessTokenTtlSeconds * 1000 });
    this.refreshTokens.set(refreshToken, { grant, expiresAt: now + this.settings.refreshTokenTtlSeconds * 1000 });
    return {
      open_id: grant.openId,
      scope: grant.scopes.join(','),
      access_token: accessToken,
      expires_in: this.settings.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      refresh_expires_in: this.settings.refreshTokenTtlSeconds,
      token_type: 'Bearer',
    };
  }

  /** The user removes the app in their settings: every grant of theirs with it is revoked. */
  removeApp(openId: string): number {
    let revoked = 0;
    for (const entry of [...this.accessTokens.values(), ...this.refreshTokens.values()]) {
      if (entry.grant.openId === openId && !entry.grant.revoked) {
        entry.grant.revoked = true;
        revoked += 1;
      }
    }
    return revoked;
  }
}

export const logId = () => `2026${randomBytes(12).toString('hex').toUpperCase()}`;
