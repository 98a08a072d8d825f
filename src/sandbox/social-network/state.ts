import { randomBytes } from 'node:crypto';
import { DEMO_AD_ACCOUNTS, DEMO_PAGES, DEMO_USER, SANDBOX_APP } from './demo.js';

/** An app: its secret signs webhooks; its subscriptions say where each object's webhooks go (its dashboard). */
export interface App {
  id: string;
  secret: string;
  name: string;
  subscriptions: Map<string, { callbackUrl: string; fields: string[]; verifyToken: string }>;
  /** The dashboard's deauthorize callback URL; unset, the sandbox uses the permissions webhook's callback URL. */
  deauthCallbackUrl: string | null;
}

/** A person: the pages and ad accounts they manage, and what they granted each app. */
export interface User {
  id: string;
  name: string;
  pageIds: string[];
  adAccountIds: string[];
  /** appId → permissions granted; an app the person removed is absent. */
  grants: Map<string, Set<string>>;
  /** Permissions this person unticks in the dialog (people may grant less than asked). */
  declines: Set<string>;
}

export interface Page {
  id: string;
  name: string;
  username: string;
  category: string;
  about: string;
  followers: number;
  /** appId → fields the app is subscribed to on this page. */
  subscribedApps: Map<string, string[]>;
}

export interface AdAccount {
  id: string;
  name: string;
  currency: string;
  timezone: string;
  status: number;
  business: string | null;
  subscribedApps: Set<string>;
  /** Who benefits from and who pays for the ads by default (the EU's DSA declaration), as its settings name them. */
  defaultDsaBeneficiary?: string | null;
  defaultDsaPayor?: string | null;
}

/** A token: a person's for an app (short- or long-lived), or a page's derived from it. Checked on every use. */
export interface Token {
  value: string;
  kind: 'user' | 'page';
  appId: string;
  userId: string;
  pageId: string | null;
  expiresAt: number | null;
  revoked: boolean;
}

export interface Code {
  appId: string;
  redirectUri: string;
  userId: string;
  used: boolean;
  expiresAt: number;
}

/** Why a token is refused, as the Graph API words it (error 190 with a subcode). */
export interface Refusal {
  subcode: number;
  message: string;
}

export const TASKS = ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MESSAGING', 'MANAGE'];
export const LONG_LIVED_SECONDS = 5_183_944;

/** What the social network keeps across a restart: everything but a failure injected for the next call. */
export interface SocialSnapshot {
  apps: Map<string, App>;
  users: Map<string, User>;
  pages: Map<string, Page>;
  adAccounts: Map<string, AdAccount>;
  tokens: Map<string, Token>;
  codes: Map<string, Code>;
  browserUserId: string;
  nextId: number;
}

/** Everything one sandbox knows of the social network, kept across restarts by `snapshot()`. */
export class SocialState {
  readonly apps: Map<string, App>;
  readonly users: Map<string, User>;
  readonly pages: Map<string, Page>;
  readonly adAccounts: Map<string, AdAccount>;
  readonly tokens: Map<string, Token>;
  readonly codes: Map<string, Code>;
  /** The person signed in to the browser that opens the dialog. */
  browserUserId: string;
  /** An error the next Graph call answers with (to see throttling and outages). */
  failNext: { status: number; code: number; message: string; subcode?: number; headers: Record<string, string> } | null = null;
  private nextId: number;

  /** From what it kept before a restart, else with the demo app, person, pages and ad accounts. */
  constructor(restored?: SocialSnapshot) {
    this.apps = restored?.apps ?? new Map();
    this.users = restored?.users ?? new Map();
    this.pages = restored?.pages ?? new Map();
    this.adAccounts = restored?.adAccounts ?? new Map();
    this.tokens = restored?.tokens ?? new Map();
    this.codes = restored?.codes ?? new Map();
    this.browserUserId = restored?.browserUserId ?? DEMO_USER.id;
    this.nextId = restored?.nextId ?? 300_000_000_000_001;
    if (!restored) this.addDemo();
  }

  snapshot(): SocialSnapshot {
    const { apps, users, pages, adAccounts, tokens, codes, browserUserId, nextId } = this;
    return { apps, users, pages, adAccounts, tokens, codes, browserUserId, nextId };
  }

  private addDemo(): void {
    this.apps.set(SANDBOX_APP.id, { ...SANDBOX_APP, subscriptions: new Map(), deauthCallbackUrl: null });
    for (const page of DEMO_PAGES) this.pages.set(page.id, { ...page, subscribedApps: new Map() });
    for (const account of DEMO_AD_ACCOUNTS) this.adAccounts.set(account.id, { ...account, subscribedApps: new Set() });
    this.users.set(DEMO_USER.id, {
      ...DEMO_USER,
      pageIds: DEMO_PAGES.map((p) => p.id),
      adAccountIds: DEMO_AD_ACCOUNTS.map((a) => a.id),
      grants: new Map(),
      declines: new Set(),
    });
  }

  newId(): string {
    return String(this.nextId++);
  }

  /** A new person with their own pages and ad accounts. */
  addUser(input: { name?: string; pages?: number; adAccounts?: number; declineScopes?: string[] }): User {
    const user: User = {
      id: this.newId(),
      name: input.name ?? 'Sandbox Person',
      pageIds: [],
      adAccountIds: [],
      grants: new Map(),
      declines: new Set(input.declineScopes ?? []),
    };
    for (let i = 1; i <= (input.pages ?? 2); i += 1) {
      const page: Page = {
        id: this.newId(),
        name: `${user.name} Page ${i}`,
        username: `page${this.nextId}`,
        category: 'Local business',
        about: `Page ${i} of ${user.name}.`,
        followers: 100 * i,
        subscribedApps: new Map(),
      };
      this.pages.set(page.id, page);
      user.pageIds.push(page.id);
    }
    for (let i = 1; i <= (input.adAccounts ?? 1); i += 1) {
      const account: AdAccount = {
        id: `act_${this.newId()}`,
        name: `${user.name} Ads ${i}`,
        currency: 'EUR',
        timezone: 'Europe/Berlin',
        status: 1,
        business: null,
        subscribedApps: new Set(),
      };
      this.adAccounts.set(account.id, account);
      user.adAccountIds.push(account.id);
    }
    this.users.set(user.id, user);
    return user;
  }

  issue(kind: Token['kind'], appId: string, userId: string, ttlSeconds: number | null, pageId: string | null = null): Token {
    const token: Token = {
      value: `EAASandbox${randomBytes(30).toString('base64url')}`,
      kind,
      appId,
      userId,
      pageId,
      expiresAt: ttlSeconds === null ? null : Date.now() + ttlSeconds * 1000,
      revoked: false,
    };
    this.tokens.set(token.value, token);
    return token;
  }

  /** Null when the token works; else why not, in the order the platform checks. */
  refusal(token: Token): Refusal | null {
    const user = this.users.get(token.userId);
    if (token.revoked)
      return {
        subcode: 460,
        message:
          'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
      };
    if (token.expiresAt !== null && token.expiresAt < Date.now())
      return { subcode: 463, message: 'Error validating access token: Session has expired.' };
    if (!user?.grants.has(token.appId))
      return { subcode: 458, message: `Error validating access token: The user has not authorized application ${token.appId}.` };
    if (token.pageId && !user.pageIds.includes(token.pageId))
      return { subcode: 492, message: 'Error validating access token: The user is not an admin of the page any more.' };
    return null;
  }

  granted(token: Token, permission: string): boolean {
    return this.users.get(token.userId)?.grants.get(token.appId)?.has(permission) ?? false;
  }
}
