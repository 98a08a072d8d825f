import { fromMinorUnits } from '../../lib/money.js';
import type { PlatformPageOf } from '../../lib/pagination.js';
import { AdRefused, type AdsAccount } from '../capabilities/ad-campaigns.js';
import {
  type AdPixels,
  type CustomConversion,
  type CustomConversionInput,
  CustomConversionNotFound,
  PixelNotFound,
  type PlatformPixel,
  type ServerEvent,
  type ServerEventsReceipt,
} from '../capabilities/ad-pixels.js';
import { PlatformError } from '../errors.js';
import type { BusinessApiClient } from './client.js';
import { CONVERSION_RULES, conversionBody, conversionOf, type TikTokConversion } from './conversion-rules.js';
import { madeSince } from '../made-since.js';

/** A pixel as `pixel/list/` gives it (best knowledge of the fields beyond id, code and name). */
interface TikTokPixel {
  pixel_id: string | number;
  pixel_code: string;
  pixel_name?: string;
  /** The base code to paste into the site's pages. */
  pixel_script?: string;
  create_time?: string;
  /** `ACTIVE`, `INACTIVE`, …; a pixel that has never fired has no last event time. */
  activity_status?: string;
  last_event_time?: string;
}

interface PageInfo {
  page?: number;
  total_page?: number;
}

/** The most pixels one `pixel/list/` page holds, and the most custom conversions one `custom_conversion/list/` page. */
const PAGE_SIZE = 20;
const CONVERSIONS_PAGE_SIZE = 100;
/** Every pixel of an advertiser is read to name a pixel by its code; no advertiser has more. */
const PIXEL_PAGES_MAX = 20;
/** A 40002 naming the pixel the request names (`event_source_id`, `pixel_code`): the advertiser has no such pixel. */
const UNKNOWN_PIXEL = /^(event_source_id|pixel_code|pixel_id): .*(not found|does not exist)/i;
const UNKNOWN_CONVERSION = /^custom_conversion_id: .*(not found|does not exist)/i;

/** Only members with a value: the Events API refuses empty ones. */
function defined(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.entries(data).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** `2026-11-22 11:57:40` (UTC, as the Business API writes times) as an ISO time. */
function isoOf(time: string | undefined): string | null {
  return time ? new Date(`${time.replace(' ', 'T')}Z`).toISOString() : null;
}

function pixelOf(raw: TikTokPixel, withCode: boolean): PlatformPixel {
  return {
    id: raw.pixel_code,
    name: raw.pixel_name ?? '',
    lastFiredTime: isoOf(raw.last_event_time),
    isUnavailable: false,
    code: withCode ? (raw.pixel_script ?? null) : null,
    createdAt: isoOf(raw.create_time) ?? new Date().toISOString(),
  };
}

/**
 * One web event in the Events API 2.0's words: person fields under `user` (hashed as they came; city, state and
 * country in clear), the page, and `properties` with amounts in major units.
 */
function trackedEvent(event: ServerEvent): Record<string, unknown> {
  const { user, custom } = event;
  const money = (minor: number | undefined) =>
    minor === undefined || !custom?.currency ? undefined : Number(fromMinorUnits(minor, custom.currency));
  return defined({
    event: event.eventName,
    event_time: Math.floor(Date.parse(event.eventTime) / 1000),
    event_id: event.eventId,
    user: defined({
      email: user.email,
      phone: user.phone,
      external_id: user.externalId,
      first_name: user.firstName,
      last_name: user.lastName,
      city: user.city,
      state: user.state,
      zip_code: user.zip,
      country: user.country,
      ip: user.clientIpAddress,
      user_agent: user.clientUserAgent,
      ttclid: user.ttclid,
      ttp: user.ttp,
    }),
    page: defined({ url: event.eventSourceUrl }),
    properties: custom
      ? defined({
          value: money(custom.value),
          currency: custom.currency,
          content_ids: custom.contentIds,
          content_type: custom.contentType,
          contents: custom.contents?.map((item) =>
            defined({ content_id: item.id, quantity: item.quantity, price: money(item.itemPrice), content_name: custom.contentName }),
          ),
          num_items: custom.numItems,
          order_id: custom.orderId,
          search_string: custom.searchString,
          status: custom.status,
        })
      : undefined,
  })!;
}

/**
 * Pixels (`pixel/list/`, `pixel/create/`), the Events API 2.0 (`event/track/` with `event_source: web` and the
 * pixel code as `event_source_id`: at most 1000 events of the last 7 days a request, accepted or refused as a
 * whole) and custom conversions (`custom_conversion/create|list|get/`, read per pixel: they are its, named by the
 * pixel's numeric id) of the Business API, with the advertiser's token. A pixel is named by its code here, as the
 * Events API and the site's base code name it.
 */
export class ShortVideoAdsAdPixels implements AdPixels {
  readonly eventRules = { batchLimit: 1000, maxAgeSeconds: 7 * 24 * 3600, actionSources: ['website'] as const };
  readonly customConversionRules = CONVERSION_RULES;

  constructor(private readonly client: BusinessApiClient) {}

  private get<T>(account: AdsAccount, path: string, query: Record<string, string | number | undefined>): Promise<T> {
    const params = new URLSearchParams({ advertiser_id: account.platformAccountId });
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    return this.client.call<T>(`${path}?${params}`, { accessToken: account.credentials.accessToken });
  }

  private post<T>(account: AdsAccount, path: string, body: Record<string, unknown>): Promise<T> {
    return this.client.call<T>(path, { method: 'POST', accessToken: account.credentials.accessToken, body });
  }

  /** A 40002 as what it names: an unknown pixel or custom conversion (404), else a refusal naming our member. */
  private refusal(error: unknown, fields: Record<string, string> = {}): never {
    if (!(error instanceof PlatformError) || error.details.platformCode !== 40002) throw error;
    if (UNKNOWN_PIXEL.test(error.message)) throw new PixelNotFound(error.message);
    if (UNKNOWN_CONVERSION.test(error.message)) throw new CustomConversionNotFound(error.message);
    const named = /^([a-z_.[\]0-9]+):/.exec(error.message)?.[1] ?? '';
    throw new AdRefused(fields[named] ?? null, error.message, 40002);
  }

  private async pixelPage(account: AdsAccount, page: number, filter: { code?: string; name?: string } = {}, size = PAGE_SIZE) {
    const data = await this.get<{ pixels?: TikTokPixel[]; page_info?: PageInfo }>(account, '/pixel/list/', {
      page,
      page_size: size,
      order_by: 'LATEST_CREATE',
      code: filter.code,
      name: filter.name,
    });
    return { pixels: data.pixels ?? [], more: (data.page_info?.total_page ?? 1) > page };
  }

  /** The advertiser's pixel of this code, with its numeric id (what custom conversions name it by). */
  private async pixelByCode(account: AdsAccount, code: string): Promise<TikTokPixel> {
    const found = (await this.pixelPage(account, 1, { code })).pixels.find((pixel) => pixel.pixel_code === code);
    if (!found) throw new PixelNotFound(`The ad account has no pixel ${code}.`);
    return found;
  }

  /** Every pixel of the advertiser, newest first. */
  private async allPixels(account: AdsAccount): Promise<TikTokPixel[]> {
    const all: TikTokPixel[] = [];
    for (let page = 1; page <= PIXEL_PAGES_MAX; page += 1) {
      const { pixels, more } = await this.pixelPage(account, page);
      all.push(...pixels);
      if (!more) break;
    }
    return all;
  }

  async pixels(
    account: AdsAccount,
    includeCode: boolean,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<PlatformPixel>> {
    const number = Number(page.after ?? 1);
    const { pixels, more } = await this.pixelPage(account, number, {}, Math.min(page.limit, PAGE_SIZE));
    return { data: pixels.map((raw) => pixelOf(raw, includeCode)), next: more ? String(number + 1) : null };
  }

  async createPixel(account: AdsAccount, name: string): Promise<PlatformPixel> {
    let made: { pixel_code?: string };
    try {
      made = await this.post(account, '/pixel/create/', { advertiser_id: account.platformAccountId, pixel_name: name });
    } catch (error) {
      this.refusal(error, { pixel_name: 'name' });
    }
    if (!made.pixel_code) throw new PlatformError('transient', 'the pixel created has no code in the answer');
    return pixelOf(await this.pixelByCode(account, made.pixel_code), true);
  }

  async findPixel(account: AdsAccount, name: string, since: Date): Promise<PlatformPixel | null> {
    const { pixels } = await this.pixelPage(account, 1, { name });
    const found = pixels.find((raw) => raw.pixel_name === name && madeSince(isoOf(raw.create_time), since));
    return found ? pixelOf(found, true) : null;
  }

  async sendEvents(
    account: AdsAccount,
    pixelId: string,
    events: ServerEvent[],
    testEventCode: string | undefined,
  ): Promise<ServerEventsReceipt> {
    let answer: { message: string | null; requestId: string | null };
    try {
      answer = await this.client.envelope('/event/track/', {
        method: 'POST',
        accessToken: account.credentials.accessToken,
        body: defined({ event_source: 'web', event_source_id: pixelId, test_event_code: testEventCode, data: events.map(trackedEvent) }),
      });
    } catch (error) {
      this.refusal(error);
    }
    const messages = answer.message && answer.message !== 'OK' ? [answer.message] : [];
    if (events.some((event) => event.optOut))
      messages.push('optOut: the Events API has no attribution-only events; those events were sent as every other.');
    return { eventsReceived: events.length, messages, traceId: answer.requestId };
  }

  async customConversions(
    account: AdsAccount,
    pixelId: string | undefined,
    page: { limit: number; after: string | undefined },
  ): Promise<PlatformPageOf<CustomConversion>> {
    // The platform lists a pixel's custom conversions only: the cursor is the pixel's place in the list and its
    // page; pixels with none are passed over, so a page is empty only at the end.
    const pixels = pixelId ? [await this.pixelByCode(account, pixelId)] : await this.allPixels(account);
    let [at, number] = (page.after ?? '0:1').split(':').map(Number) as [number, number];
    for (; at < pixels.length; at += 1, number = 1) {
      const pixel = pixels[at]!;
      const { list, more } = await this.conversionPage(account, pixel, number, Math.min(page.limit, CONVERSIONS_PAGE_SIZE));
      if (list.length === 0 && !more) continue;
      const next = more ? `${at}:${number + 1}` : at + 1 < pixels.length ? `${at + 1}:1` : null;
      return { data: list.map((raw) => conversionOf(raw, pixel.pixel_code)), next };
    }
    return { data: [], next: null };
  }

  private async conversionPage(account: AdsAccount, pixel: TikTokPixel, page: number, size: number) {
    const data = await this.get<{ list?: TikTokConversion[]; page_info?: PageInfo }>(account, '/custom_conversion/list/', {
      event_source_type: 'PIXEL',
      event_source_id: String(pixel.pixel_id),
      page,
      page_size: size,
    });
    return { list: data.list ?? [], more: (data.page_info?.total_page ?? 1) > page };
  }

  async customConversion(account: AdsAccount, id: string): Promise<CustomConversion> {
    // The platform reads one through its pixel: each pixel of the advertiser is asked until one has it.
    for (const pixel of await this.allPixels(account)) {
      try {
        const raw = await this.get<TikTokConversion>(account, '/custom_conversion/get/', {
          custom_conversion_id: id,
          event_source_type: 'PIXEL',
          event_source_id: String(pixel.pixel_id),
        });
        return conversionOf(raw, pixel.pixel_code);
      } catch (error) {
        if (!(error instanceof PlatformError) || error.details.platformCode !== 40002 || !UNKNOWN_CONVERSION.test(error.message))
          throw error;
      }
    }
    throw new CustomConversionNotFound(`The ad account has no custom conversion ${id}.`);
  }

  async customConversionCount(account: AdsAccount): Promise<number> {
    let count = 0;
    for (const pixel of await this.allPixels(account)) {
      for (let page = 1; ; page += 1) {
        const { list, more } = await this.conversionPage(account, pixel, page, CONVERSIONS_PAGE_SIZE);
        count += list.length;
        if (!more) break;
      }
    }
    return count;
  }

  async createCustomConversion(account: AdsAccount, input: CustomConversionInput): Promise<CustomConversion> {
    const pixel = await this.pixelByCode(account, input.pixelId);
    let made: { custom_conversion_id?: string | number };
    try {
      made = await this.post(account, '/custom_conversion/create/', {
        advertiser_id: account.platformAccountId,
        ...conversionBody(input, String(pixel.pixel_id)),
      });
    } catch (error) {
      this.refusal(error, { name: 'name', description: 'description', optimization_event: 'customEventType', rules: 'rule' });
    }
    return this.customConversion(account, String(made.custom_conversion_id));
  }

  async findCustomConversion(account: AdsAccount, name: string, since: Date): Promise<CustomConversion | null> {
    for (const pixel of await this.allPixels(account)) {
      const { list } = await this.conversionPage(account, pixel, 1, CONVERSIONS_PAGE_SIZE);
      const found = list.find((raw) => raw.name === name && madeSince(isoOf(raw.create_time), since));
      if (found) return conversionOf(found, pixel.pixel_code);
    }
    return null;
  }
}
