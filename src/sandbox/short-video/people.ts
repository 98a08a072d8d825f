import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { sendTikTokWebhook } from '../tiktok-webhook.js';
import type { ShortVideoState } from './state.js';

/** Signs and sends one webhook, as the platform does (../tiktok-webhook.ts). */
export function webhookSender(state: ShortVideoState) {
  /** `content` as an object, or already written (to write an int64 as the number it is). */
  return (url: string, event: string, openId: string, content: Record<string, unknown> | string) =>
    sendTikTokWebhook(url, { clientKey: state.app.clientKey, secret: state.app.clientSecret }, { event, userOpenId: openId, content });
}

/**
 * The people around Login Kit: a creator who signs up, a creator who removes the app in their settings (the
 * platform then POSTs the signed `authorization.removed` webhook to the app's callback URL), and the developer
 * portal's settings (token lifetimes, the callback URL, a rate limit to hit).
 */
export function mountShortVideoPeople(router: Router, state: ShortVideoState): void {
  const fail = (ctx: RouterContext, status: number, message: string) => {
    ctx.status = status;
    ctx.body = { error: message };
  };

  const deliver = webhookSender(state);

  router.post('/_sandbox/short_video/users', (ctx) => {
    const user = state.addUser((ctx.request.body ?? {}) as Record<string, never>);
    ctx.status = 201;
    ctx.body = { openId: user.openId, unionId: user.unionId, username: user.username, displayName: user.displayName };
  });

  /**
   * The creator removes the app (TikTok settings → Security → Manage app permissions): every token of theirs
   * stops working and the webhook goes to `webhookUrl` (standing for the callback URL set in the portal).
   */
  router.post('/_sandbox/short_video/remove-app', async (ctx) => {
    const body = (ctx.request.body ?? {}) as { openId?: string; webhookUrl?: string; reason?: number };
    const user = state.users.get(String(body.openId ?? ''));
    if (!user) return fail(ctx, 404, 'no such user');
    const revoked = state.removeApp(user.openId);
    const url = body.webhookUrl ?? state.settings.webhookUrl;
    // Reason 1: the user disconnected the app from within TikTok.
    ctx.body = {
      revoked,
      ...(url ? await deliver(url, 'authorization.removed', user.openId, { reason: body.reason ?? 1 }) : { webhookStatus: null }),
    };
  });

  /** Any other event (a publish result), signed the same way. */
  router.post('/_sandbox/short_video/events', async (ctx) => {
    const body = (ctx.request.body ?? {}) as { openId?: string; webhookUrl?: string; event?: string; content?: Record<string, unknown> };
    const url = body.webhookUrl ?? state.settings.webhookUrl;
    if (!url || !body.event || !body.openId) return fail(ctx, 400, 'openId, event and a webhookUrl are needed');
    ctx.body = await deliver(url, body.event, body.openId, body.content ?? {});
  });

  /** Shorter token lifetimes (to see refreshes and expiries happen), the callback URL, a rate limit, processing time, an unaudited app. */
  router.post('/_sandbox/short_video/settings', (ctx) => {
    const body = (ctx.request.body ?? {}) as Partial<ShortVideoState['settings']>;
    if (body.accessTokenTtlSeconds !== undefined) state.settings.accessTokenTtlSeconds = body.accessTokenTtlSeconds;
    if (body.refreshTokenTtlSeconds !== undefined) state.settings.refreshTokenTtlSeconds = body.refreshTokenTtlSeconds;
    if (body.webhookUrl !== undefined) state.settings.webhookUrl = body.webhookUrl;
    if (body.rateLimited !== undefined) state.settings.rateLimited = body.rateLimited;
    if (body.processingMs !== undefined) state.settings.processingMs = body.processingMs;
    if (body.unaudited !== undefined) state.settings.unaudited = body.unaudited;
    ctx.body = state.settings;
  });

  /** The developer verifies a domain for the app (portal → URL properties): photos may then be pulled from it and below it. */
  router.post('/_sandbox/short_video/verified-domains', (ctx) => {
    const domain = String((ctx.request.body as { domain?: unknown } | undefined)?.domain ?? '').toLowerCase();
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) return fail(ctx, 400, 'domain must be a domain name (media.example.com)');
    if (!state.settings.verifiedDomains.includes(domain)) state.settings.verifiedDomains.push(domain);
    ctx.body = { verifiedDomains: state.settings.verifiedDomains };
  });
}
