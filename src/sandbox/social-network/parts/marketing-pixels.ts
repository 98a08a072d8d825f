import { randomBytes } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import { checkCapiEvent, weakMatch } from '../capi-checks.js';
import { graphTime } from '../graph.js';
import { defineSocialPart } from '../part.js';
import { answerUnlessLost, marketingAdAccount } from '../marketing-calls.js';

interface Pixel {
  id: string;
  adAccountId: string;
  name: string;
  createdAt: number;
  lastFiredAt: number | null;
}

/** An event a pixel received, as the events manager shows it (test events apart). */
interface ReceivedEvent {
  pixelId: string;
  event: Record<string, unknown>;
  testEventCode: string | null;
  /** The same name and event_id reached the pixel within 48 hours before: counted once. */
  deduplicated: boolean;
  receivedAt: number;
}

interface CustomConversion {
  id: string;
  adAccountId: string;
  name: string;
  description: string | null;
  pixelId: string;
  customEventType: string;
  rule: string;
  defaultConversionValue: number | null;
  archived: boolean;
  createdAt: number;
}

interface MarketingPixels {
  pixels: Pixel[];
  events: ReceivedEvent[];
  conversions: CustomConversion[];
  /** Ad accounts whose next create on this edge (`adspixels`, `customconversions`) is done, then its answer lost. */
  lostAnswers: Record<string, string[]>;
}

const PIXELS_PER_AD_ACCOUNT = 100;
const CONVERSIONS_PER_AD_ACCOUNT = 100;
const DEDUPE_WINDOW_MS = 48 * 3600 * 1000;
const EVENT_TYPES = new Set([
  'PURCHASE',
  'LEAD',
  'COMPLETE_REGISTRATION',
  'ADD_TO_CART',
  'INITIATED_CHECKOUT',
  'ADD_PAYMENT_INFO',
  'ADD_TO_WISHLIST',
  'CONTENT_VIEW',
  'SEARCH',
  'CONTACT',
  'SUBSCRIBE',
  'START_TRIAL',
  'SUBMIT_APPLICATION',
  'SCHEDULE',
  'FIND_LOCATION',
  'CUSTOMIZE_PRODUCT',
  'DONATE',
  'OTHER',
]);
const RULE_OPERATORS = new Set(['i_contains', 'i_not_contains', 'eq', 'neq', 'i_starts_with', 'i_ends_with', 'gt', 'lt']);

/** The pixel's base code, as the events manager gives it to paste into a site's `<head>`. */
const baseCode = (id: string) =>
  `<!-- Pixel Code -->\n<script>\n!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};` +
  `if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;` +
  `s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window, document,'script','https://connect.social.example/en_US/fbevents.js');\n` +
  `fbq('init', '${id}');\nfbq('track', 'PageView');\n</script>\n<!-- End Pixel Code -->`;

/** A custom conversion rule: `{"and"|"or": [{"<field>": {"<operator>": value}}]}` with fields and operators the platform knows. */
function ruleProblem(text: string): string | null {
  let rule: unknown;
  try {
    rule = JSON.parse(text);
  } catch {
    return 'rule must be JSON.';
  }
  const entries = typeof rule === 'object' && rule !== null ? Object.entries(rule) : [];
  const [combinator, items] = entries[0] ?? [];
  if (entries.length !== 1 || (combinator !== 'and' && combinator !== 'or') || !Array.isArray(items) || items.length === 0)
    return 'rule must be {"and": […]} or {"or": […]} with at least one condition.';
  for (const item of items as unknown[]) {
    const [field, comparison] = Object.entries((item ?? {}) as Record<string, unknown>)[0] ?? [];
    if (!field || !/^(url|referrer|event|custom_data\.[A-Za-z0-9_]+)$/.test(field))
      return `rule: ${field ?? 'a condition'} is no rule field.`;
    const [operator, value] = Object.entries((comparison ?? {}) as Record<string, unknown>)[0] ?? [];
    if (!operator || !RULE_OPERATORS.has(operator)) return `rule: ${operator ?? 'a condition'} is no rule operator.`;
    if ((operator === 'gt' || operator === 'lt') && typeof value !== 'number') return `rule: ${operator} compares numbers.`;
  }
  return null;
}

/**
 * Pixels, the Conversions API and custom conversions of the Marketing API: `GET|POST /act_{id}/adspixels`, a pixel's
 * `GET /{id}` (with `code`), `POST /{pixel-id}/events` (at most 1000 events, each checked as capi-checks.ts says;
 * `test_event_code` keeps them apart as test events; an event whose name and event_id the pixel received within 48
 * hours is deduplicated), and `GET|POST /act_{id}/customconversions` (rule JSON checked, at most 100 an ad account,
 * archived ones included) and `GET /{id}`. People's controls: a lost answer, what a pixel received, and archiving.
 */
export const marketingPixelsPart = defineSocialPart<MarketingPixels>({
  key: 'marketing_pixels',
  mount(router, network, restored) {
    const { state, graph, base } = network;
    const kept: MarketingPixels = restored ?? { pixels: [], events: [], conversions: [], lostAnswers: {} };
    const people = '/_sandbox/social_network';

    const adAccountOf = (ctx: RouterContext, id: string) => marketingAdAccount(network, ctx, id);
    /** An object of an ad account the caller's token reaches; else the Graph's unknown object is written. */
    const reachable = <T extends { id: string; adAccountId: string }>(ctx: RouterContext, object: T): T | null =>
      adAccountOf(ctx, object.adAccountId) ? object : null;
    const answer = (ctx: RouterContext, adAccountId: string, edge: string, body: unknown) =>
      answerUnlessLost(ctx, kept.lostAnswers, { adAccountId, edge }, body);

    const pixelView = (pixel: Pixel) => ({
      id: pixel.id,
      name: pixel.name,
      creation_time: graphTime(pixel.createdAt),
      last_fired_time: pixel.lastFiredAt === null ? undefined : graphTime(pixel.lastFiredAt),
      is_unavailable: false,
      code: baseCode(pixel.id),
    });
    const conversionView = (conversion: CustomConversion) => {
      const fired = kept.events
        .filter((one) => one.pixelId === conversion.pixelId && !one.testEventCode)
        .map((one) => one.receivedAt)
        .at(-1);
      return {
        id: conversion.id,
        name: conversion.name,
        description: conversion.description ?? undefined,
        pixel: { id: conversion.pixelId },
        custom_event_type: conversion.customEventType,
        rule: conversion.rule,
        default_conversion_value: conversion.defaultConversionValue ?? undefined,
        last_fired_time: fired === undefined ? undefined : graphTime(fired),
        is_archived: conversion.archived,
        creation_time: graphTime(conversion.createdAt),
      };
    };

    router.get(`${base}/:adAccountId/adspixels`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx, ctx.params.adAccountId!);
      if (!account) return;
      const list = kept.pixels
        .filter((pixel) => pixel.adAccountId === account.id)
        .reverse()
        .map((pixel) => graph.pick(pixelView(pixel), graph.params(ctx).fields, 'id,name'));
      ctx.body = graph.list(ctx, list, `${ctx.origin}${ctx.path}`);
    });

    router.post(`${base}/:adAccountId/adspixels`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx, ctx.params.adAccountId!);
      if (!account) return;
      const name = graph.params(ctx).name?.trim();
      if (!name) return graph.fail(ctx, 400, 100, '(#100) The parameter name is required');
      if (kept.pixels.filter((pixel) => pixel.adAccountId === account.id).length >= PIXELS_PER_AD_ACCOUNT)
        return graph.fail(ctx, 400, 6200, '(#6200) Pixel limit reached', {
          user: { title: 'Too many pixels', message: `An ad account may have at most ${PIXELS_PER_AD_ACCOUNT} pixels.` },
        });
      const pixel: Pixel = { id: state.newId(), adAccountId: account.id, name, createdAt: Date.now(), lastFiredAt: null };
      kept.pixels.push(pixel);
      answer(ctx, account.id, 'adspixels', { id: pixel.id });
    });

    router.post(`${base}/:pixelId/events`, (ctx, next) => {
      const pixel = kept.pixels.find((one) => one.id === ctx.params.pixelId);
      if (!pixel) return next();
      if (!reachable(ctx, pixel)) return;
      const p = graph.params(ctx);
      let data: unknown;
      try {
        data = JSON.parse(p.data ?? '');
      } catch {
        data = null;
      }
      if (!Array.isArray(data) || data.length === 0 || data.length > 1000)
        return graph.fail(ctx, 400, 100, '(#100) data must be a JSON array of 1 to 1000 events');
      const now = Date.now();
      for (const [index, event] of (data as Array<Record<string, unknown>>).entries()) {
        const refusal = checkCapiEvent(event, index, Math.floor(now / 1000));
        if (refusal)
          return graph.fail(ctx, 400, 100, `(#100) ${refusal.message}`, {
            subcode: refusal.subcode,
            user: { title: refusal.title, message: refusal.message },
          });
      }
      const testEventCode = p.test_event_code || null;
      const messages: string[] = [];
      for (const [index, event] of (data as Array<Record<string, unknown>>).entries()) {
        const seen = kept.events.some(
          (one) =>
            one.pixelId === pixel.id &&
            event.event_id !== undefined &&
            one.event.event_id === event.event_id &&
            one.event.event_name === event.event_name &&
            now - one.receivedAt < DEDUPE_WINDOW_MS,
        );
        kept.events.push({ pixelId: pixel.id, event, testEventCode, deduplicated: seen, receivedAt: now });
        const weak = weakMatch(event, index);
        if (weak) messages.push(weak);
      }
      if (!testEventCode) pixel.lastFiredAt = now;
      ctx.body = { events_received: data.length, messages, fbtrace_id: randomBytes(9).toString('base64url') };
    });

    router.get(`${base}/:adAccountId/customconversions`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx, ctx.params.adAccountId!);
      if (!account) return;
      const p = graph.params(ctx);
      const filter = p.filtering ? (JSON.parse(p.filtering) as Array<{ field: string; value: string }>) : [];
      const pixelId = filter.find((one) => one.field === 'pixel.id')?.value;
      const list = kept.conversions
        .filter((one) => one.adAccountId === account.id && (!pixelId || one.pixelId === pixelId))
        .reverse()
        .map((one) => graph.pick(conversionView(one), p.fields, 'id,name'));
      ctx.body = graph.list(ctx, list, `${ctx.origin}${ctx.path}`);
    });

    router.post(`${base}/:adAccountId/customconversions`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx, ctx.params.adAccountId!);
      if (!account) return;
      const p = graph.params(ctx);
      if (!p.name?.trim()) return graph.fail(ctx, 400, 100, '(#100) The parameter name is required');
      const pixel = kept.pixels.find((one) => one.id === p.pixel_id && one.adAccountId === account.id);
      if (!pixel) return graph.unknownObject(ctx, p.pixel_id ?? '');
      if (!EVENT_TYPES.has(p.custom_event_type ?? '')) return graph.fail(ctx, 400, 100, '(#100) custom_event_type is not valid');
      const problem = ruleProblem(p.rule ?? '');
      if (problem)
        return graph.fail(ctx, 400, 100, `(#100) Invalid rule: ${problem}`, {
          subcode: 1760002,
          user: { title: 'Invalid rule', message: problem },
        });
      if (kept.conversions.filter((one) => one.adAccountId === account.id).length >= CONVERSIONS_PER_AD_ACCOUNT)
        return graph.fail(ctx, 400, 100, '(#100) Custom conversion limit reached', {
          subcode: 1760001,
          user: {
            title: 'Too many custom conversions',
            message: `An ad account may have at most ${CONVERSIONS_PER_AD_ACCOUNT} custom conversions, archived ones included.`,
          },
        });
      const conversion: CustomConversion = {
        id: state.newId(),
        adAccountId: account.id,
        name: p.name.trim(),
        description: p.description || null,
        pixelId: pixel.id,
        customEventType: p.custom_event_type!,
        rule: p.rule!,
        defaultConversionValue: p.default_conversion_value === undefined ? null : Number(p.default_conversion_value),
        archived: false,
        createdAt: Date.now(),
      };
      kept.conversions.push(conversion);
      answer(ctx, account.id, 'customconversions', { id: conversion.id });
    });

    /** A pixel or a custom conversion; anything else is another part's. */
    router.get(`${base}/:id`, (ctx, next) => {
      const pixel = kept.pixels.find((one) => one.id === ctx.params.id);
      const conversion = kept.conversions.find((one) => one.id === ctx.params.id);
      if (!pixel && !conversion) return next();
      if (!reachable(ctx, (pixel ?? conversion)!)) return;
      const view = pixel ? pixelView(pixel) : conversionView(conversion!);
      ctx.body = graph.pick(view, graph.params(ctx).fields, 'id,name');
    });

    const input = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
    const missing = (ctx: RouterContext, what: string) => {
      ctx.status = 404;
      ctx.body = { error: `no such ${what}` };
    };

    /** The ad account's next create on `edge` (`adspixels`, `customconversions`) is done, then its answer is lost. */
    router.post(`${people}/pixel-lost-answer`, (ctx) => {
      const { adAccountId, edge } = input(ctx) as { adAccountId?: string; edge?: string };
      if (!state.adAccounts.has(String(adAccountId))) return missing(ctx, 'ad account');
      (kept.lostAnswers[String(adAccountId)] ??= []).push(String(edge));
      ctx.body = { lostAnswers: kept.lostAnswers[String(adAccountId)] };
    });

    /** What a pixel received (test events apart), and the ad account's pixels and custom conversions, for tests to look at. */
    router.get(`${people}/pixels`, (ctx) => {
      const adAccountId = String(ctx.query.adAccountId ?? '');
      if (!state.adAccounts.has(adAccountId)) return missing(ctx, 'ad account');
      const pixels = kept.pixels.filter((pixel) => pixel.adAccountId === adAccountId);
      ctx.body = {
        pixels: pixels.map((pixel) => ({
          ...pixel,
          events: kept.events.filter((one) => one.pixelId === pixel.id).map(({ pixelId: _, ...event }) => event),
        })),
        customConversions: kept.conversions.filter((one) => one.adAccountId === adAccountId),
      };
    });

    /** The ad account's custom conversion is archived in the events manager (it still counts toward the limit). */
    router.post(`${people}/custom-conversions/:id/archive`, (ctx) => {
      const conversion = kept.conversions.find((one) => one.id === ctx.params.id);
      if (!conversion) return missing(ctx, 'custom conversion');
      conversion.archived = true;
      ctx.body = { id: conversion.id, archived: true };
    });

    return { state: () => kept };
  },
});
