import { randomBytes } from 'node:crypto';
import { verifyCallback } from '../meta-callback.js';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { type CloudMessagingState, mountCloudMessaging } from './messaging.js';
import { mountCloudPeople } from './people.js';
import { PublicUrls } from '../public-urls.js';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { type CloudSnapshot, CloudState, type PhoneNumber, type Token } from './state.js';

export * from './demo.js';

/**
 * The chat app's cloud API (WhatsApp Cloud API, Meta Graph style) under `/chatapp-cloud/{version}/…`: the
 * endpoints our adapter uses, with Graph's error bodies `{"error":{"message","type","code","error_subcode",
 * "fbtrace_id"}}`. The token travels as `Authorization: Bearer` or as `access_token`, as on the real Graph.
 */
export function mountChatappCloud(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox {
  const state = new CloudState(stored.restored as CloudSnapshot | undefined);
  const base = '/chatapp-cloud/:version';

  const fail = (ctx: RouterContext, status: number, code: number, message: string, extra: { subcode?: number; type?: string } = {}) => {
    ctx.status = status;
    ctx.body = {
      error: {
        message,
        type: extra.type ?? 'OAuthException',
        code,
        ...(extra.subcode === undefined ? {} : { error_subcode: extra.subcode }),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    };
  };
  const params = (ctx: RouterContext): Record<string, unknown> => ({
    ...(ctx.query as Record<string, unknown>),
    ...((ctx.request.body as Record<string, unknown> | undefined) ?? {}),
  });

  /** The caller's token, or an answer already written (the Graph's 2500 and 190 errors). */
  const authenticate = (ctx: RouterContext): Token | null => {
    const header = ctx.get('Authorization');
    const value = header.startsWith('Bearer ') ? header.slice(7) : String(params(ctx).access_token ?? '');
    if (!value) {
      fail(ctx, 400, 2500, 'An active access token must be used to query information about the current user.');
      return null;
    }
    const token = state.tokens.get(value);
    // A token that does not work (190) is HTTP 401, as the cloud API answers it.
    if (!token) {
      fail(ctx, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
      return null;
    }
    if (token.revoked) {
      fail(
        ctx,
        401,
        190,
        'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
        { subcode: 460 },
      );
      return null;
    }
    return token;
  };
  const unknownObject = (ctx: RouterContext, id: string) =>
    fail(
      ctx,
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33, type: 'GraphMethodException' },
    );
  const lacks = (token: Token, scope: string) => !token.scopes.includes(scope);
  const numberFor = (ctx: RouterContext, token: Token): PhoneNumber | null => {
    const number = state.numbers.get(ctx.params.id!);
    if (!number || !token.wabaIds.has(number.wabaId)) {
      unknownObject(ctx, ctx.params.id!);
      return null;
    }
    if (lacks(token, 'whatsapp_business_management')) {
      fail(ctx, 403, 200, '(#200) Permissions error');
      return null;
    }
    return number;
  };

  const urls = new PublicUrls((stored.restored as { strictUrls?: boolean } | undefined)?.strictUrls);
  urls.mount(router, 'chatapp-cloud');
  const messaging = mountCloudMessaging(
    router,
    state,
    { sandboxUrl, urls, authenticate, numberFor, fail },
    (stored.restored as { messaging?: CloudMessagingState } | undefined)?.messaging,
  );

  router.get(`${base}/debug_token`, (ctx) => {
    if (!authenticate(ctx)) return;
    const input = state.tokens.get(String(ctx.query.input_token ?? ''));
    if (!input || input.revoked) {
      ctx.body = { data: { is_valid: false, scopes: [], error: { code: 190, message: 'Invalid OAuth access token.' } } };
      return;
    }
    ctx.body = {
      data: {
        app_id: input.appId,
        type: 'SYSTEM_USER',
        application: state.apps.get(input.appId)?.name,
        expires_at: 0,
        data_access_expires_at: 0,
        is_valid: true,
        scopes: input.scopes,
        granular_scopes: input.scopes
          .filter((scope) => scope.startsWith('whatsapp'))
          .map((scope) => ({ scope, target_ids: [...input.wabaIds] })),
      },
    };
  });

  router.get(`${base}/:id/phone_numbers`, (ctx) => {
    const token = authenticate(ctx);
    if (!token) return;
    if (!state.wabas.has(ctx.params.id!) || !token.wabaIds.has(ctx.params.id!)) return unknownObject(ctx, ctx.params.id!);
    const data = [...state.numbers.values()]
      .filter((n) => n.wabaId === ctx.params.id)
      .map((n) => ({
        id: n.id,
        display_phone_number: n.displayPhoneNumber,
        verified_name: n.verifiedName,
        quality_rating: 'GREEN',
      }));
    ctx.body = { data, paging: { cursors: { before: 'QVFIUk1', after: 'QVFIUk2' } } };
  });

  router.get(`${base}/:id/whatsapp_business_profile`, (ctx) => {
    const token = authenticate(ctx);
    const number = token && numberFor(ctx, token);
    if (!number) return;
    ctx.body = {
      data: [
        {
          messaging_product: 'whatsapp',
          about: 'Sandbox business: replies within minutes.',
          address: '1 Sandbox Street',
          description: `${number.verifiedName} on the sandbox.`,
          email: 'hello@sandbox.example',
          vertical: 'RESTAURANT',
          websites: ['https://sandbox.example/'],
          profile_picture_url: `https://sandbox.example/pp/${number.id}.jpg`,
        },
      ],
    };
  });

  router.get(`${base}/:id`, (ctx) => {
    const token = authenticate(ctx);
    const number = token && numberFor(ctx, token);
    if (!number) return;
    const all: Record<string, unknown> = {
      display_phone_number: number.displayPhoneNumber,
      verified_name: number.verifiedName,
      quality_rating: 'GREEN',
      code_verification_status: 'VERIFIED',
      name_status: 'APPROVED',
      platform_type: number.registered ? 'CLOUD_API' : 'NOT_APPLICABLE',
      status: number.registered ? 'CONNECTED' : 'PENDING',
      throughput: { level: 'STANDARD' },
      messaging_limit_tier: 'TIER_1K',
      account_mode: 'LIVE',
      is_official_business_account: false,
    };
    const fields = String(ctx.query.fields ?? 'display_phone_number,verified_name,quality_rating')
      .split(',')
      .map((f) => f.trim());
    ctx.body = { ...Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])), id: number.id };
  });

  router.post(`${base}/:id/register`, (ctx) => {
    const token = authenticate(ctx);
    const number = token && numberFor(ctx, token);
    if (!number) return;
    const body = params(ctx);
    if (body.messaging_product !== 'whatsapp') return fail(ctx, 400, 100, '(#100) The parameter messaging_product is required.');
    if (String(body.pin ?? '') !== number.pin) return fail(ctx, 400, 133005, 'Two step verification PIN Mismatch');
    number.registered = true;
    ctx.body = { success: true };
  });

  /** Subscribes the token's app to the business account; an alternate callback URL is verified first, as Meta does. */
  router.post(`${base}/:id/subscribed_apps`, async (ctx) => {
    const token = authenticate(ctx);
    if (!token) return;
    const waba = state.wabas.get(ctx.params.id!);
    if (!waba || !token.wabaIds.has(waba.id)) return unknownObject(ctx, ctx.params.id!);
    const body = params(ctx);
    const override = body.override_callback_uri === undefined ? null : String(body.override_callback_uri);
    if (override !== null) {
      if (override.length > 200 || !/^https?:\/\//.test(override))
        return fail(ctx, 400, 100, '(#100) Param override_callback_uri must be a valid URL of at most 200 characters');
      if (body.verify_token === undefined) return fail(ctx, 400, 100, '(#100) The parameter verify_token is required.');
      const problem = await verifyCallback(override, String(body.verify_token));
      if (problem) return fail(ctx, 400, 2200, `(#2200) Callback verification failed with the following errors: ${problem}`);
    }
    waba.subscriptions.set(token.appId, { overrideCallbackUri: override });
    ctx.body = { success: true };
  });

  router.get(`${base}/:id/subscribed_apps`, (ctx) => {
    const token = authenticate(ctx);
    if (!token) return;
    const waba = state.wabas.get(ctx.params.id!);
    if (!waba || !token.wabaIds.has(waba.id)) return unknownObject(ctx, ctx.params.id!);
    ctx.body = {
      data: [...waba.subscriptions].map(([appId, sub]) => ({
        whatsapp_business_api_data: { id: appId, name: state.apps.get(appId)?.name },
        ...(sub.overrideCallbackUri ? { override_callback_uri: sub.overrideCallbackUri } : {}),
      })),
    };
  });

  router.delete(`${base}/:id/subscribed_apps`, (ctx) => {
    const token = authenticate(ctx);
    if (!token) return;
    const waba = state.wabas.get(ctx.params.id!);
    if (!waba || !token.wabaIds.has(waba.id)) return unknownObject(ctx, ctx.params.id!);
    waba.subscriptions.delete(token.appId);
    ctx.body = { success: true };
  });

  mountCloudPeople(router, state);
  return { state: () => ({ ...state.snapshot(), messaging: messaging(), strictUrls: urls.state() }) };
}
