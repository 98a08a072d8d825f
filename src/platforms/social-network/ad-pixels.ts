import { fromMinorUnits, toMinorUnits } from '../../lib/money.js';
import type { PlatformPageOf } from '../../lib/pagination.js';
import { platformRule, ruleOf } from '../ad-event-rules.js';
import type { AdsAccount } from '../capabilities/ad-campaigns.js';
import {
  type AdConversionEventType,
  type AdPixels,
  type CustomConversion,
  type CustomConversionInput,
  type CustomConversionRules,
  CustomConversionNotFound,
  PixelNotFound,
  type PlatformPixel,
  type ServerEvent,
  type ServerEventsReceipt,
} from '../capabilities/ad-pixels.js';
import type { PlatformError } from '../errors.js';
import { type GraphList, nextCursorOf } from '../meta/graph.js';
import { classifyMarketingError } from './campaigns.js';
import type { SocialNetworkClient } from './client.js';
import { madeSince } from '../made-since.js';

interface GraphPixel {
  id: string;
  name?: string;
  last_fired_time?: string;
  is_unavailable?: boolean;
  code?: string;
  creation_time?: string;
}

interface GraphCustomConversion {
  id: string;
  name?: string;
  description?: string;
  pixel?: { id: string };
  custom_event_type?: string;
  rule?: string;
  default_conversion_value?: number;
  last_fired_time?: string;
  is_archived?: boolean;
  creation_time?: string;
}

const PIXEL_FIELDS = 'id,name,last_fired_time,is_unavailable,creation_time';
const CONVERSION_FIELDS =
  'id,name,description,pixel{id},custom_event_type,rule,default_conversion_value,last_fired_time,is_archived,creation_time';
/** How far back a lost answer's pixel or custom conversion is looked for: the newest ones, where it would be. */
const LOOKUP_LIMIT = 50;
/** The Graph's "unsupported get request" (the object does not exist or the token cannot see it). */
const UNKNOWN_OBJECT = 100;
const SUBCODE_UNKNOWN_OBJECT = 33;

const json = (value: unknown) => JSON.stringify(value);

function pixelOf(raw: GraphPixel, withCode: boolean): PlatformPixel {
  return {
    id: raw.id,
    name: raw.name ?? '',
    lastFiredTime: raw.last_fired_time ? new Date(raw.last_fired_time).toISOString() : null,
    isUnavailable: raw.is_unavailable ?? false,
    code: withCode ? (raw.code ?? null) : null,
    createdAt: new Date(raw.creation_time ?? Date.now()).toISOString(),
  };
}

function conversionOf(raw: GraphCustomConversion, currency: string): CustomConversion {
  return {
    id: raw.id,
    name: raw.name ?? '',
    description: raw.description || null,
    pixelId: raw.pixel?.id ?? '',
    customEventType: (raw.custom_event_type ?? 'OTHER') as AdConversionEventType,
    rule: ruleOf(raw.rule),
    defaultConversionValue: raw.default_conversion_value === undefined ? null : toMinorUnits(raw.default_conversion_value, currency),
    lastFiredTime: raw.last_fired_time ? new Date(raw.last_fired_time).toISOString() : null,
    isArchived: raw.is_archived ?? false,
    createdAt: new Date(raw.creation_time ?? Date.now()).toISOString(),
  };
}

/** An object the Graph does not know (or will not show this token) is the `missing` error; anything else stays. */
function unknownObjectAs(missing: () => PlatformError) {
  return (status: number, body: unknown, headers?: Headers): PlatformError => {
    const error = (body as { error?: { code?: number; error_subcode?: number } } | null)?.error;
    if (error?.code === UNKNOWN_OBJECT && error.error_subcode === SUBCODE_UNKNOWN_OBJECT) return missing();
    return classifyMarketingError(status, body, headers);
  };
}

/** Only members with a value: the Conversions API refuses empty ones. */
function defined(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)),
  );
}

/** One event in the Conversions API's words: `user_data` keys `em`, `ph`, …, `custom_data` amounts in major units. */
function capiEvent(event: ServerEvent): Record<string, unknown> {
  const { user, custom } = event;
  const money = (minor: number | undefined) =>
    minor === undefined || !custom?.currency ? undefined : Number(fromMinorUnits(minor, custom.currency));
  return defined({
    event_name: event.eventName,
    event_time: Math.floor(Date.parse(event.eventTime) / 1000),
    action_source: event.actionSource,
    event_source_url: event.eventSourceUrl,
    event_id: event.eventId,
    opt_out: event.optOut || undefined,
    user_data: defined({
      em: user.email,
      ph: user.phone,
      fn: user.firstName,
      ln: user.lastName,
      ge: user.gender,
      db: user.dateOfBirth,
      ct: user.city,
      st: user.state,
      zp: user.zip,
      country: user.country,
      external_id: user.externalId,
      client_ip_address: user.clientIpAddress,
      client_user_agent: user.clientUserAgent,
      fbc: user.fbc,
      fbp: user.fbp,
    }),
    custom_data: custom
      ? defined({
          value: money(custom.value),
          currency: custom.currency?.toLowerCase(),
          content_ids: custom.contentIds,
          content_type: custom.contentType,
          contents: custom.contents?.map((item) => defined({ id: item.id, quantity: item.quantity, item_price: money(item.itemPrice) })),
          content_name: custom.contentName,
          num_items: custom.numItems,
          order_id: custom.orderId,
          search_string: custom.searchString,
          status: custom.status,
        })
      : undefined,
  });
}

/**
 * Pixels (`/act_{id}/adspixels`), the Conversions API (`POST /{pixel-id}/events`, at most 1000 events of the last
 * 7 days a request) and custom conversions (`/act_{id}/customconversions`, at most 100 an ad account) of the
 * Marketing API, with the person's token the ad account keeps.
 */
export class SocialNetworkAdPixels implements AdPixels {
  readonly eventRules = {
    batchLimit: 1000,
    maxAgeSeconds: 7 * 24 * 3600,
    actionSources: [
      'website',
      'app',
      'email',
      'phone_call',
      'chat',
      'physical_store',
      'system_generated',
      'business_messaging',
      'other',
    ] as const,
  };
  readonly customConversionRules: CustomConversionRules = {
    fields: ['url', 'referrer', 'event', 'custom_data'],
    customDataKeys: null,
    keyOperators: {},
    operators: ['contains', 'not_contains', 'equals', 'not_equals', 'starts_with', 'ends_with', 'greater_than', 'less_than'],
    combinators: ['and', 'or'],
    maxConditions: 20,
    eventTypes: null,
    perAccount: 100,
    defaultValue: true,
  };

  constructor(private readonly client: SocialNetworkClient) {}

  private call<T>(
    account: AdsAccount,
    method: 'GET' | 'POST',
    path: string,
    request: { query?: Record<string, string | number | undefined>; form?: Record<string, string | number | undefined> },
    classify = classifyMarketingError,
  ) {
    return this.client.call<T>(method, path, { token: account.credentials.accessToken, ...request }, classify);
  }

  async pixels(
    account: AdsAccount,
    includeCode: boolean,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<PlatformPixel>> {
    const list = await this.call<GraphList<GraphPixel>>(account, 'GET', `${account.platformAccountId}/adspixels`, {
      query: { fields: includeCode ? `${PIXEL_FIELDS},code` : PIXEL_FIELDS, limit: page.limit, after: page.after },
    });
    return { data: list.data.map((raw) => pixelOf(raw, includeCode)), next: nextCursorOf(list) };
  }

  async createPixel(account: AdsAccount, name: string): Promise<PlatformPixel> {
    const { id } = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/adspixels`, { form: { name } });
    const raw = await this.call<GraphPixel>(account, 'GET', id, { query: { fields: `${PIXEL_FIELDS},code` } });
    return pixelOf(raw, true);
  }

  async findPixel(account: AdsAccount, name: string, since: Date): Promise<PlatformPixel | null> {
    const list = await this.call<GraphList<GraphPixel>>(account, 'GET', `${account.platformAccountId}/adspixels`, {
      query: { fields: `${PIXEL_FIELDS},code`, limit: LOOKUP_LIMIT },
    });
    const found = list.data.find((raw) => raw.name === name && madeSince(raw.creation_time, since));
    return found ? pixelOf(found, true) : null;
  }

  async sendEvents(
    account: AdsAccount,
    pixelId: string,
    events: ServerEvent[],
    testEventCode: string | undefined,
  ): Promise<ServerEventsReceipt> {
    const answer = await this.call<{ events_received?: number; messages?: string[]; fbtrace_id?: string }>(
      account,
      'POST',
      `${pixelId}/events`,
      { form: { data: json(events.map(capiEvent)), test_event_code: testEventCode } },
      unknownObjectAs(() => new PixelNotFound(`The ad account has no pixel ${pixelId}.`)),
    );
    return { eventsReceived: answer.events_received ?? 0, messages: answer.messages ?? [], traceId: answer.fbtrace_id ?? null };
  }

  async customConversions(
    account: AdsAccount,
    pixelId: string | undefined,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<CustomConversion>> {
    const list = await this.call<GraphList<GraphCustomConversion>>(account, 'GET', `${account.platformAccountId}/customconversions`, {
      query: {
        fields: CONVERSION_FIELDS,
        limit: page.limit,
        after: page.after,
        filtering: pixelId ? json([{ field: 'pixel.id', operator: 'EQUAL', value: pixelId }]) : undefined,
      },
    });
    return { data: list.data.map((raw) => conversionOf(raw, account.currency)), next: nextCursorOf(list) };
  }

  async customConversion(account: AdsAccount, id: string): Promise<CustomConversion> {
    const raw = await this.call<GraphCustomConversion>(
      account,
      'GET',
      id,
      { query: { fields: CONVERSION_FIELDS } },
      unknownObjectAs(() => new CustomConversionNotFound(`The ad account has no custom conversion ${id}.`)),
    );
    return conversionOf(raw, account.currency);
  }

  async customConversionCount(account: AdsAccount): Promise<number> {
    let count = 0;
    let after: string | undefined;
    do {
      const list = await this.call<GraphList<{ id: string }>>(account, 'GET', `${account.platformAccountId}/customconversions`, {
        query: { fields: 'id', limit: 100, after },
      });
      count += list.data.length;
      after = nextCursorOf(list) ?? undefined;
    } while (after);
    return count;
  }

  async createCustomConversion(account: AdsAccount, input: CustomConversionInput): Promise<CustomConversion> {
    const { id } = await this.call<{ id: string }>(
      account,
      'POST',
      `${account.platformAccountId}/customconversions`,
      {
        form: {
          name: input.name,
          description: input.description,
          pixel_id: input.pixelId,
          custom_event_type: input.customEventType,
          rule: platformRule(input.rule),
          default_conversion_value:
            input.defaultConversionValue === undefined ? undefined : fromMinorUnits(input.defaultConversionValue, account.currency),
        },
      },
      unknownObjectAs(() => new PixelNotFound(`The ad account has no pixel ${input.pixelId}.`)),
    );
    return this.customConversion(account, id);
  }

  async findCustomConversion(account: AdsAccount, name: string, since: Date): Promise<CustomConversion | null> {
    const { data } = await this.customConversions(account, undefined, { limit: LOOKUP_LIMIT, after: undefined });
    return data.find((conversion) => conversion.name === name && madeSince(conversion.createdAt, since)) ?? null;
  }
}
