import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { conversionProblem, eventProblem } from './pixel-rules.js';
import type { ReportApi } from './report-routes.js';

interface Pixel {
  /** The numeric id custom conversions name it by. */
  id: string;
  /** The code the Events API and the base code name it by. */
  code: string;
  advertiserId: string;
  name: string;
  createdAt: number;
  lastEventAt: number | null;
}

/** A web event a pixel received, as the events manager shows it (test events apart). */
interface ReceivedEvent {
  pixelCode: string;
  event: Record<string, unknown>;
  testEventCode: string | null;
  /** The same event name and event_id reached the pixel within 48 hours before: counted once. */
  deduplicated: boolean;
  receivedAt: number;
}

interface Conversion {
  id: string;
  advertiserId: string;
  pixelId: string;
  name: string;
  description: string | null;
  optimizationEvent: string;
  rules: unknown[];
  createdAt: number;
}

/** What the pixels keep across a restart. */
export interface PixelsState {
  pixels: Pixel[];
  events: ReceivedEvent[];
  conversions: Conversion[];
  /** Advertisers whose next create of this kind (`pixel`, `custom_conversion`) is made, then its answer lost. */
  lostAnswers: Record<string, string[]>;
  nextId: number;
}

const PAGE_SIZE_MAX = 20;
const CONVERSION_PAGE_SIZE_MAX = 1000;
const PIXEL_NAME_MAX = 40;
const CONVERSIONS_PER_ADVERTISER = 100;
const EVENTS_PER_REQUEST = 1000;
const DEDUPE_WINDOW_MS = 48 * 3600 * 1000;

const time = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
/** The base code the events manager gives to paste into a site's `<head>`. */
const baseCode = (code: string) =>
  `<!-- TikTok Pixel Code Start -->\n<script>\n!function (w, d, t) {w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];` +
  `ttq.methods=["page","track","identify"];ttq.load=function(e){var r="https://analytics.short-video.example/i18n/pixel/events.js";` +
  `var o=d.createElement("script");o.async=!0;o.src=r+"?sdkid="+e;var a=d.getElementsByTagName("script")[0];a.parentNode.insertBefore(o,a)};\n` +
  `ttq.load('${code}');\nttq.page();\n}(window, document, 'ttq');\n</script>\n<!-- TikTok Pixel Code End -->`;

/**
 * The Business API's pixels, Events API 2.0 and custom conversions: `pixel/list/` (by code or name, newest or
 * oldest first, pages of at most 20) and `pixel/create/` (a name of at most 40 characters); `event/track/` with
 * `event_source: web` and the pixel code as `event_source_id` (at most 1000 events, each checked as pixel-rules.ts
 * says, refused as a whole; `test_event_code` keeps them apart as test events; an event whose name and event_id the
 * pixel received within 48 hours is deduplicated); `custom_conversion/create|list|get/` through the pixel's numeric
 * id (at most 100 an advertiser). People's controls: a lost answer, and what the pixels received.
 */
export function mountPixels(router: Router, api: ReportApi, base: string, restored: PixelsState | undefined) {
  const kept: PixelsState = restored ?? { pixels: [], events: [], conversions: [], lostAnswers: {}, nextId: 7_200_000_000_000_000 };
  const people = '/_sandbox/short_video_ads';
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const refuse = (ctx: RouterContext, message: string) => api.answer(ctx, 40002, message);
  const newId = () => String((kept.nextId += 1));
  const newCode = () => `C${randomBytes(12).toString('hex').toUpperCase().slice(0, 19)}`;
  /** Made, then the answer is lost on the way when a person asked for it: the caller sees a gateway timeout. */
  const answerUnlessLost = (ctx: RouterContext, advertiserId: string, kind: string, data: unknown) => {
    const lost = kept.lostAnswers[advertiserId] ?? [];
    if (lost.includes(kind)) {
      lost.splice(lost.indexOf(kind), 1);
      ctx.status = 504;
      ctx.body = 'upstream request timeout';
      return;
    }
    api.answer(ctx, 0, 'OK', data);
  };
  const page = (q: Record<string, string>, max: number) => ({
    number: Math.max(1, Number(q.page ?? 1) || 1),
    size: Math.min(max, Math.max(1, Number(q.page_size ?? 10) || 10)),
  });
  const paged = <T>(all: T[], at: { number: number; size: number }) => ({
    list: all.slice((at.number - 1) * at.size, at.number * at.size),
    page_info: { page: at.number, page_size: at.size, total_number: all.length, total_page: Math.ceil(all.length / at.size) },
  });

  const pixelView = (pixel: Pixel) => ({
    pixel_id: pixel.id,
    pixel_code: pixel.code,
    pixel_name: pixel.name,
    pixel_script: baseCode(pixel.code),
    create_time: time(pixel.createdAt),
    activity_status: pixel.lastEventAt === null ? 'NOT_ACTIVE' : 'ACTIVE',
    last_event_time: pixel.lastEventAt === null ? undefined : time(pixel.lastEventAt),
  });
  const conversionView = (conversion: Conversion) => ({
    custom_conversion_id: conversion.id,
    name: conversion.name,
    description: conversion.description ?? undefined,
    event_source_type: 'PIXEL',
    event_source_id: conversion.pixelId,
    optimization_event: conversion.optimizationEvent,
    rules: conversion.rules,
    active_status: 'WAITING_FOR_ACTIVITY',
    create_time: time(conversion.createdAt),
    update_time: time(conversion.createdAt),
  });

  router.get(`${base}/pixel/list/`, (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (!api.advertiser(ctx, q.advertiser_id)) return;
    const at = page(q, PAGE_SIZE_MAX);
    const all = kept.pixels.filter(
      (pixel) => pixel.advertiserId === q.advertiser_id && (!q.code || pixel.code === q.code) && (!q.name || pixel.name.includes(q.name)),
    );
    if (q.order_by === 'LATEST_CREATE') all.reverse();
    const { list, page_info } = paged(all, at);
    api.answer(ctx, 0, 'OK', { pixels: list.map(pixelView), page_info });
  });

  router.post(`${base}/pixel/create/`, (ctx) => {
    const input = body(ctx);
    const advertiserId = String(input.advertiser_id ?? '');
    if (!api.advertiser(ctx, advertiserId)) return;
    const name = typeof input.pixel_name === 'string' ? input.pixel_name.trim() : '';
    if (!name) return refuse(ctx, 'pixel_name: Field is required.');
    if (name.length > PIXEL_NAME_MAX) return refuse(ctx, `pixel_name: At most ${PIXEL_NAME_MAX} characters.`);
    const pixel: Pixel = { id: newId(), code: newCode(), advertiserId, name, createdAt: Date.now(), lastEventAt: null };
    kept.pixels.push(pixel);
    answerUnlessLost(ctx, advertiserId, 'pixel', { pixel_id: pixel.id, pixel_code: pixel.code, pixel_name: pixel.name });
  });

  router.post(`${base}/event/track/`, (ctx) => {
    const input = body(ctx);
    if (input.event_source !== 'web') return refuse(ctx, 'event_source: Only web events are reported to a pixel.');
    const pixel = kept.pixels.find((one) => one.code === input.event_source_id);
    if (!pixel) return refuse(ctx, `event_source_id: The pixel ${String(input.event_source_id)} was not found.`);
    if (!api.advertiser(ctx, pixel.advertiserId)) return;
    const data = input.data;
    if (!Array.isArray(data) || data.length === 0 || data.length > EVENTS_PER_REQUEST)
      return refuse(ctx, `data: Must hold 1 to ${EVENTS_PER_REQUEST} events.`);
    const now = Date.now();
    for (const [index, event] of (data as Array<Record<string, unknown>>).entries()) {
      const problem = eventProblem(event ?? {}, index, Math.floor(now / 1000));
      if (problem) return refuse(ctx, problem);
    }
    const testEventCode = typeof input.test_event_code === 'string' && input.test_event_code ? input.test_event_code : null;
    for (const event of data as Array<Record<string, unknown>>) {
      const seen = kept.events.some(
        (one) =>
          one.pixelCode === pixel.code &&
          event.event_id !== undefined &&
          one.event.event_id === event.event_id &&
          one.event.event === event.event &&
          now - one.receivedAt < DEDUPE_WINDOW_MS,
      );
      kept.events.push({ pixelCode: pixel.code, event, testEventCode, deduplicated: seen, receivedAt: now });
    }
    if (!testEventCode) pixel.lastEventAt = now;
    api.answer(ctx, 0, 'OK', {});
  });

  router.post(`${base}/custom_conversion/create/`, (ctx) => {
    const input = body(ctx);
    const advertiserId = String(input.advertiser_id ?? '');
    if (!api.advertiser(ctx, advertiserId)) return;
    if (input.event_source_type !== 'PIXEL') return refuse(ctx, 'event_source_type: Only PIXEL custom conversions are made here.');
    const pixel = kept.pixels.find((one) => one.id === String(input.event_source_id) && one.advertiserId === advertiserId);
    if (!pixel) return refuse(ctx, `event_source_id: The pixel ${String(input.event_source_id)} was not found.`);
    const problem = conversionProblem(input);
    if (problem) return refuse(ctx, problem);
    const mine = kept.conversions.filter((one) => one.advertiserId === advertiserId);
    if (mine.some((one) => one.name === input.name)) return refuse(ctx, 'name: A custom conversion of this name exists.');
    if (mine.length >= CONVERSIONS_PER_ADVERTISER)
      return refuse(ctx, `The advertiser has ${CONVERSIONS_PER_ADVERTISER} custom conversions, the most it may have.`);
    const conversion: Conversion = {
      id: newId(),
      advertiserId,
      pixelId: pixel.id,
      name: String(input.name),
      description: typeof input.description === 'string' && input.description ? input.description : null,
      optimizationEvent: String(input.optimization_event),
      rules: input.rules as unknown[],
      createdAt: Date.now(),
    };
    kept.conversions.push(conversion);
    answerUnlessLost(ctx, advertiserId, 'custom_conversion', { custom_conversion_id: conversion.id });
  });

  /** The advertiser's pixel a query names by its numeric id (`event_source_id`), or the refusal written. */
  const queriedPixel = (ctx: RouterContext, q: Record<string, string>): Pixel | null => {
    if (!api.advertiser(ctx, q.advertiser_id)) return null;
    const pixel = kept.pixels.find((one) => one.id === q.event_source_id && one.advertiserId === q.advertiser_id);
    if (!pixel || q.event_source_type !== 'PIXEL') refuse(ctx, `event_source_id: The pixel ${q.event_source_id} was not found.`);
    return pixel && q.event_source_type === 'PIXEL' ? pixel : null;
  };

  router.get(`${base}/custom_conversion/list/`, (ctx) => {
    const q = ctx.query as Record<string, string>;
    const pixel = queriedPixel(ctx, q);
    if (!pixel) return;
    const all = kept.conversions.filter((one) => one.pixelId === pixel.id).reverse();
    const { list, page_info } = paged(all, page(q, CONVERSION_PAGE_SIZE_MAX));
    api.answer(ctx, 0, 'OK', { list: list.map(conversionView), page_info });
  });

  router.get(`${base}/custom_conversion/get/`, (ctx) => {
    const q = ctx.query as Record<string, string>;
    const pixel = queriedPixel(ctx, q);
    if (!pixel) return;
    const conversion = kept.conversions.find((one) => one.id === q.custom_conversion_id && one.pixelId === pixel.id);
    if (!conversion) return refuse(ctx, `custom_conversion_id: The custom conversion ${q.custom_conversion_id} does not exist.`);
    api.answer(ctx, 0, 'OK', conversionView(conversion));
  });

  /** The advertiser's next create of `kind` (`pixel`, `custom_conversion`) is made, then its answer is lost. */
  router.post(`${people}/pixel-lost-answer`, (ctx) => {
    const { adAccountId, edge } = body(ctx) as { adAccountId?: string; edge?: string };
    (kept.lostAnswers[String(adAccountId)] ??= []).push(String(edge));
    ctx.body = { lostAnswers: kept.lostAnswers[String(adAccountId)] };
  });

  /** The advertiser's pixels with what each received, and its custom conversions, for tests to look at. */
  router.get(`${people}/pixels`, (ctx) => {
    const advertiserId = String(ctx.query.adAccountId ?? '');
    ctx.body = {
      pixels: kept.pixels
        .filter((pixel) => pixel.advertiserId === advertiserId)
        .map((pixel) => ({
          id: pixel.code,
          pixelId: pixel.id,
          name: pixel.name,
          events: kept.events.filter((one) => one.pixelCode === pixel.code).map(({ pixelCode: _, ...event }) => event),
        })),
      customConversions: kept.conversions.filter((one) => one.advertiserId === advertiserId),
    };
  });

  return { state: () => kept };
}
