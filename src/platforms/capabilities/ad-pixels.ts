import type { components } from '../../../generated/api.js';
import type { PlatformPageOf } from '../../lib/pagination.js';
import { PlatformError } from '../errors.js';
import type { AdsAccount } from './ad-campaigns.js';

type Schemas = components['schemas'];
export type AdEventRule = Schemas['AdEventRule'];
export type AdConversionEventType = Schemas['AdConversionEventType'];
type PixelEvent = Schemas['AdPixelEvent'];

/** A pixel as the platform keeps it (on TikTok its `id` is the pixel code the Events API names it by). */
export interface PlatformPixel {
  id: string;
  name: string;
  lastFiredTime: string | null;
  isUnavailable: boolean;
  /** The base code to paste into the site's pages; null unless asked for. */
  code: string | null;
  createdAt: string;
}

/**
 * Who acted, as the platform receives it: the person fields already normalised and hashed for this platform (or
 * in clear where it takes them so: see src/modules/ads/people/hashing.ts), and the ids that are never hashed.
 */
export interface ServerEventUser {
  email?: string[];
  phone?: string[];
  firstName?: string;
  lastName?: string;
  gender?: string;
  dateOfBirth?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  externalId?: string[];
  clientIpAddress?: string;
  clientUserAgent?: string;
  fbc?: string;
  fbp?: string;
  ttclid?: string;
  ttp?: string;
}

/** One server event, checked against the platform's rules already (its age, its source's requirements). */
export interface ServerEvent {
  eventName: string;
  eventTime: string;
  actionSource: PixelEvent['actionSource'];
  eventSourceUrl?: string;
  eventId?: string;
  optOut: boolean;
  user: ServerEventUser;
  /** As the contract has it: amounts in minor units of `currency` (the platform is given its major units). */
  custom?: PixelEvent['customData'];
}

export interface ServerEventsReceipt {
  eventsReceived: number;
  messages: string[];
  traceId: string | null;
}

/** What a platform's Events API takes, checked before anything is sent (a refusal names the event by its index). */
export interface ServerEventRules {
  /** The most events one request may carry. */
  batchLimit: number;
  /** How old an event may be, in seconds. */
  maxAgeSeconds: number;
  /** The action sources a pixel takes; others go elsewhere (TikTok: offline event sets). */
  actionSources: ReadonlyArray<PixelEvent['actionSource']>;
}

export interface CustomConversion {
  id: string;
  name: string;
  description: string | null;
  pixelId: string;
  customEventType: AdConversionEventType;
  rule: AdEventRule;
  /** In minor units of the ad account's currency. */
  defaultConversionValue: number | null;
  lastFiredTime: string | null;
  isArchived: boolean;
  createdAt: string;
}

export interface CustomConversionInput {
  name: string;
  description?: string;
  pixelId: string;
  customEventType: AdConversionEventType;
  rule: AdEventRule;
  defaultConversionValue?: number;
}

/** The rule fields a platform's custom conversions take (`custom_data.<key>` stands for every such key). */
export type RuleField = 'url' | 'referrer' | 'event' | 'custom_data';
export type RuleOperator = AdEventRule['conditions'][number]['operator'];

/** A platform's custom conversion rule syntax and limits, checked before anything is sent. */
export interface CustomConversionRules {
  fields: ReadonlyArray<RuleField>;
  /** The `custom_data` keys its rules compare; null: any key. */
  customDataKeys: ReadonlyArray<string> | null;
  /** The `custom_data` keys compared with some operators only (a number: equality or order). */
  keyOperators: Readonly<Record<string, ReadonlyArray<RuleOperator>>>;
  operators: ReadonlyArray<RuleOperator>;
  combinators: ReadonlyArray<AdEventRule['combinator']>;
  maxConditions: number;
  /** The kinds its custom conversions count; null: every kind. */
  eventTypes: ReadonlyArray<AdConversionEventType> | null;
  /** How many an ad account may have, archived ones included. */
  perAccount: number;
  /** Whether they carry a default value. */
  defaultValue: boolean;
}

/** The pixel named is not one the ad account may use: a 404. */
export class PixelNotFound extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
    this.name = 'PixelNotFound';
  }
}

/** The custom conversion named is not the ad account's: a 404. */
export class CustomConversionNotFound extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
    this.name = 'CustomConversionNotFound';
  }
}

/**
 * Pixels, their server events (the Conversions API / the Events API) and custom conversions of a connected ad
 * account. Creates are not idempotent; their lost answers are looked for by name (`findPixel`,
 * `findCustomConversion`). Events are deduplicated by the platform on (`eventName`, `eventId`).
 */
export interface AdPixels {
  readonly eventRules: ServerEventRules;
  readonly customConversionRules: CustomConversionRules;
  pixels(
    account: AdsAccount,
    includeCode: boolean,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<PlatformPixel>>;
  createPixel(account: AdsAccount, name: string): Promise<PlatformPixel>;
  /** The newest pixel of this name made since `since`, with its code. */
  findPixel(account: AdsAccount, name: string, since: Date): Promise<PlatformPixel | null>;
  /** Sends one batch (at most `eventRules.batchLimit`); a refusal of the batch is an `AdRefused` naming the event. */
  sendEvents(account: AdsAccount, pixelId: string, events: ServerEvent[], testEventCode: string | undefined): Promise<ServerEventsReceipt>;
  customConversions(
    account: AdsAccount,
    pixelId: string | undefined,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<CustomConversion>>;
  customConversion(account: AdsAccount, id: string): Promise<CustomConversion>;
  /** How many the ad account has now, archived ones included: the platform's limit counts them all. */
  customConversionCount(account: AdsAccount): Promise<number>;
  createCustomConversion(account: AdsAccount, input: CustomConversionInput): Promise<CustomConversion>;
  findCustomConversion(account: AdsAccount, name: string, since: Date): Promise<CustomConversion | null>;
}
