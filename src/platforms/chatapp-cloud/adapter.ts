import { PlatformError } from '../errors.js';
import type { About, AdapterAccount, PlatformAdapter, PlatformIdentity } from '../types.js';
import type { WebhookReceiver } from '../capabilities/webhooks.js';
import { graph } from './client.js';
import type { ChatappCloudSettings } from './settings.js';
import { ChatappCloudMessaging } from './messaging.js';
import { ChatappCloudWebhooks } from './webhooks.js';

interface PhoneNumberNode {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  platform_type?: string;
  [field: string]: unknown;
}
interface DebugToken {
  data?: { is_valid?: boolean; scopes?: string[]; expires_at?: number };
}
interface Paged<T> {
  data: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}
interface BusinessProfile {
  about?: string;
  description?: string;
  vertical?: string;
  websites?: string[];
  profile_picture_url?: string;
  [field: string]: unknown;
}

export const REQUIRED_SCOPES = ['whatsapp_business_messaging', 'whatsapp_business_management'];
const NUMBER_FIELDS = 'display_phone_number,verified_name,platform_type,code_verification_status,quality_rating';
const ABOUT_FIELDS = `${NUMBER_FIELDS},name_status,status,throughput,messaging_limit_tier,account_mode,is_official_business_account`;
const PROFILE_FIELDS = 'about,address,description,email,profile_picture_url,websites,vertical';
/** Enough pages of a business account's numbers for any real one (Meta caps numbers per business account). */
const MAX_PAGES = 20;

/** `chatapp-cloud`: a chat app's cloud API (WhatsApp Cloud API) — a phone number id and a system user token. */
export class ChatappCloudAdapter implements PlatformAdapter {
  readonly id = 'chatapp-cloud' as const;
  /** A number's messages go to the app subscribed to its business account, under one callback. */
  readonly exclusiveIdentity = true;
  readonly lacks = {
    insights: 'chatapp-cloud numbers are chat accounts: the platform gives conversation pricing figures, not an audience.',
  };
  readonly webhooks: WebhookReceiver;
  /** Direct messages, and the cloud API's own (templates, buttons, reactions). */
  readonly messaging: ChatappCloudMessaging;
  readonly chatapp: ChatappCloudMessaging;

  /** `webhookUrl`: our `/webhooks/chatapp-cloud` address, set as the business account's alternate callback URL. */
  constructor(
    private readonly settings: ChatappCloudSettings,
    private readonly webhookUrl: string,
  ) {
    this.webhooks = new ChatappCloudWebhooks(settings.appSecret, settings.verifyToken);
    this.messaging = new ChatappCloudMessaging(settings.apiUrl);
    this.chatapp = this.messaging;
  }

  /** Whether this instance has an app of its own whose webhooks it can check. */
  get hasApp(): boolean {
    return this.settings.appSecret !== undefined;
  }

  /**
   * Checks the token and the number before anything is stored: the token's permissions (where the platform says
   * them), the number readable with it, and the number one of the business account's.
   */
  async verifyNumber(input: {
    phoneNumberId: string;
    wabaId: string;
    accessToken: string;
  }): Promise<{ identity: PlatformIdentity; registered: boolean }> {
    const { scopes, expiresAt } = await this.inspectToken(input.accessToken);
    if (scopes && !REQUIRED_SCOPES.every((scope) => scopes.includes(scope))) {
      throw new PlatformError('permission_revoked', `the token lacks ${REQUIRED_SCOPES.filter((s) => !scopes.includes(s)).join(' and ')}`);
    }
    const number = await graph<PhoneNumberNode>(this.settings.apiUrl, input.accessToken, 'GET', input.phoneNumberId, {
      query: { fields: NUMBER_FIELDS },
    });
    if (!(await this.inBusinessAccount(input.accessToken, input.wabaId, input.phoneNumberId))) {
      throw new PlatformError('invalid_request', `the number ${input.phoneNumberId} is not one of the business account ${input.wabaId}`);
    }
    return {
      identity: {
        platformAccountId: number.id,
        kind: 'phone_number',
        name: number.verified_name || number.display_phone_number || number.id,
        username: null,
        avatarUrl: null,
        scopes: scopes ?? REQUIRED_SCOPES,
        tokenExpiresAt: expiresAt,
      },
      registered: number.platform_type === 'CLOUD_API',
    };
  }

  /**
   * The token's own view of itself. A platform that will not debug the token this way (some answer only to app
   * tokens) leaves the scopes unknown: the reads that follow still need the management permission.
   */
  private async inspectToken(token: string): Promise<{ scopes: string[] | null; expiresAt: Date | null }> {
    try {
      const debug = await graph<DebugToken>(this.settings.apiUrl, token, 'GET', 'debug_token', { query: { input_token: token } });
      if (debug.data?.is_valid === false)
        throw new PlatformError('auth_expired', 'the platform says the token is not valid', { platformCode: 190 });
      const expires = debug.data?.expires_at ?? 0;
      return { scopes: debug.data?.scopes ?? null, expiresAt: expires > 0 ? new Date(expires * 1000) : null };
    } catch (error) {
      if (error instanceof PlatformError && (error.kind === 'auth_expired' || error.kind === 'transient' || error.kind === 'rate_limited'))
        throw error;
      return { scopes: null, expiresAt: null };
    }
  }

  private async inBusinessAccount(token: string, wabaId: string, phoneNumberId: string): Promise<boolean> {
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const numbers = await graph<Paged<{ id: string }>>(this.settings.apiUrl, token, 'GET', `${wabaId}/phone_numbers`, {
        query: { fields: 'id', limit: '100', ...(after ? { after } : {}) },
      });
      if (numbers.data.some((n) => n.id === phoneNumberId)) return true;
      after = numbers.paging?.cursors?.after;
      if (!numbers.paging?.next || !after) return false;
    }
    return false;
  }

  /** Registers a number with the cloud API (two-step verification PIN); a registered number needs nothing. */
  async register(token: string, phoneNumberId: string, pin: string): Promise<void> {
    await graph(this.settings.apiUrl, token, 'POST', `${phoneNumberId}/register`, { body: { messaging_product: 'whatsapp', pin } });
  }

  /**
   * Subscribes the token's app to the business account's webhooks and, where this instance has a verify token,
   * points them at us (alternate callback URL; Meta checks it with the GET handshake first). Without one, the
   * operator set the app's callback URL in the app dashboard.
   */
  async subscribe(token: string, wabaId: string): Promise<void> {
    const body = this.settings.verifyToken ? { override_callback_uri: this.webhookUrl, verify_token: this.settings.verifyToken } : {};
    await graph(this.settings.apiUrl, token, 'POST', `${wabaId}/subscribed_apps`, { body });
  }

  async about(account: AdapterAccount): Promise<About> {
    const token = account.credentials.accessToken;
    const id = account.platformAccountId;
    const [number, profiles] = await Promise.all([
      graph<PhoneNumberNode>(this.settings.apiUrl, token, 'GET', id, { query: { fields: ABOUT_FIELDS } }),
      graph<{ data?: BusinessProfile[] }>(this.settings.apiUrl, token, 'GET', `${id}/whatsapp_business_profile`, {
        query: { fields: PROFILE_FIELDS },
      }),
    ]);
    const profile = profiles.data?.[0] ?? {};
    const digits = (number.display_phone_number ?? '').replace(/\D/g, '');
    return {
      platformAccountId: id,
      name: number.verified_name ?? number.display_phone_number ?? id,
      username: null,
      bio: profile.about ?? profile.description ?? null,
      url: digits ? `https://wa.me/${digits}` : null,
      pictureUrl: profile.profile_picture_url ?? null,
      category: profile.vertical ?? null,
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: typeof number.is_official_business_account === 'boolean' ? number.is_official_business_account : null,
      platformData: { ...number, business_profile: profile },
    };
  }

  // No revoke: the subscription belongs to the app and the whole business account, which other connected numbers
  // (of this owner or another) may share; a disconnected account's webhooks are dropped when they are processed.
}
