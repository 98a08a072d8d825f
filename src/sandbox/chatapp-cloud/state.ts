import { randomBytes } from 'node:crypto';
import {
  DEMO_ACCESS_TOKEN,
  DEMO_DISPLAY_PHONE_NUMBER,
  DEMO_PHONE_NUMBER_ID,
  DEMO_PIN,
  DEMO_VERIFIED_NAME,
  DEMO_WABA_ID,
  SANDBOX_APP_ID,
  SANDBOX_APP_SECRET,
} from './demo.js';

/** An app on the platform: webhooks of the business accounts it is subscribed to are signed with its secret. */
export interface App {
  id: string;
  name: string;
  secret: string;
}

/** A business account (WABA) and the apps subscribed to its webhooks, each with its alternate callback URL. */
export interface Waba {
  id: string;
  name: string;
  subscriptions: Map<string, { overrideCallbackUri: string | null }>;
}

export interface PhoneNumber {
  id: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** Registered with the cloud API (`platform_type: CLOUD_API`); until then it cannot send or receive. */
  registered: boolean;
  pin: string;
}

/** A system user token: issued for one app, granted on some business accounts, revocable by its business. */
export interface Token {
  value: string;
  appId: string;
  scopes: string[];
  wabaIds: Set<string>;
  revoked: boolean;
}

export const FULL_SCOPES = ['whatsapp_business_messaging', 'whatsapp_business_management', 'business_management'];

/** What the cloud API keeps across a restart: its apps, business accounts with their webhook subscriptions, numbers, tokens, and the next id. */
export interface CloudSnapshot {
  apps: Map<string, App>;
  wabas: Map<string, Waba>;
  numbers: Map<string, PhoneNumber>;
  tokens: Map<string, Token>;
  nextId: number;
}

/** Everything one sandbox knows of the chat app's cloud API. */
export class CloudState {
  readonly apps: Map<string, App>;
  readonly wabas: Map<string, Waba>;
  readonly numbers: Map<string, PhoneNumber>;
  readonly tokens: Map<string, Token>;
  private nextId: number;

  /** From what it kept before a restart, else with the demo business, its number and token. */
  constructor(restored?: CloudSnapshot) {
    this.apps = restored?.apps ?? new Map();
    this.wabas = restored?.wabas ?? new Map();
    this.numbers = restored?.numbers ?? new Map();
    this.tokens = restored?.tokens ?? new Map();
    this.nextId = restored?.nextId ?? 200_000_000_000_001;
    if (restored) return;
    this.apps.set(SANDBOX_APP_ID, { id: SANDBOX_APP_ID, name: 'Sandbox App', secret: SANDBOX_APP_SECRET });
    this.wabas.set(DEMO_WABA_ID, { id: DEMO_WABA_ID, name: 'Sandbox Demo Business', subscriptions: new Map() });
    this.numbers.set(DEMO_PHONE_NUMBER_ID, {
      id: DEMO_PHONE_NUMBER_ID,
      wabaId: DEMO_WABA_ID,
      displayPhoneNumber: DEMO_DISPLAY_PHONE_NUMBER,
      verifiedName: DEMO_VERIFIED_NAME,
      registered: true,
      pin: DEMO_PIN,
    });
    this.tokens.set(DEMO_ACCESS_TOKEN, {
      value: DEMO_ACCESS_TOKEN,
      appId: SANDBOX_APP_ID,
      scopes: FULL_SCOPES,
      wabaIds: new Set([DEMO_WABA_ID]),
      revoked: false,
    });
  }

  snapshot(): CloudSnapshot {
    return { apps: this.apps, wabas: this.wabas, numbers: this.numbers, tokens: this.tokens, nextId: this.nextId };
  }

  newId(): string {
    return String(this.nextId++);
  }

  /** A new business with one number and a token for it; with `appSecret`, the token is of another app. */
  addBusiness(input: { verifiedName?: string; registered?: boolean; appSecret?: string; scopes?: string[] }) {
    let appId = SANDBOX_APP_ID;
    if (input.appSecret) {
      appId = this.newId();
      this.apps.set(appId, { id: appId, name: `App ${appId}`, secret: input.appSecret });
    }
    const waba: Waba = { id: this.newId(), name: `${input.verifiedName ?? 'Sandbox Business'} WABA`, subscriptions: new Map() };
    this.wabas.set(waba.id, waba);
    const suffix = String(this.numbers.size + 1).padStart(4, '0');
    const number: PhoneNumber = {
      id: this.newId(),
      wabaId: waba.id,
      displayPhoneNumber: `+1 555-011-${suffix}`,
      verifiedName: input.verifiedName ?? 'Sandbox Business',
      registered: input.registered ?? true,
      pin: DEMO_PIN,
    };
    this.numbers.set(number.id, number);
    const token: Token = {
      value: `EAASandbox${randomBytes(24).toString('base64url')}`,
      appId,
      scopes: input.scopes ?? FULL_SCOPES,
      wabaIds: new Set([waba.id]),
      revoked: false,
    };
    this.tokens.set(token.value, token);
    return { waba, number, token };
  }

  /** The number's digits, as `wa_id` and the webhook's `display_phone_number` write it. */
  static digits(number: PhoneNumber): string {
    return number.displayPhoneNumber.replace(/\D/g, '');
  }
}
