import { createHmac } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { App, SocialState } from './state.js';

export interface Delivery {
  appId: string;
  url: string | null;
  status: number | null;
}

/** POSTs a webhook as the platform does: JSON signed with the app secret (SHA-256, and the legacy SHA-1). */
export async function deliver(app: App, url: string | null, payload: unknown): Promise<Delivery> {
  if (!url) return { appId: app.id, url, status: null };
  const raw = JSON.stringify(payload);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Hub-Signature-256': `sha256=${createHmac('sha256', app.secret).update(raw).digest('hex')}`,
      'X-Hub-Signature': `sha1=${createHmac('sha1', app.secret).update(raw).digest('hex')}`,
    },
    body: raw,
  });
  await response.arrayBuffer();
  return { appId: app.id, url, status: response.status };
}

/** The deauthorize callback: a form with `signed_request`, HMAC-SHA256 (app secret) over the base64url payload. */
async function deauthorize(app: App, url: string | null, userId: string): Promise<Delivery> {
  if (!url) return { appId: app.id, url, status: null };
  const payload = Buffer.from(
    JSON.stringify({ algorithm: 'HMAC-SHA256', issued_at: Math.floor(Date.now() / 1000), user_id: userId }),
  ).toString('base64url');
  const signature = createHmac('sha256', app.secret).update(payload).digest('base64url');
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signed_request: `${signature}.${payload}` }).toString(),
  });
  await response.arrayBuffer();
  return { appId: app.id, url, status: response.status };
}

/**
 * The people around the social network: someone who signs up with pages and ad accounts, signs in to the
 * browser, removes the app or one of its permissions, or loses a token; and the
 * app developer's dashboard (the deauthorize callback URL) and a failure to inject into the next Graph call.
 */
export function mountSocialPeople(router: Router, state: SocialState): void {
  const fail = (ctx: RouterContext, status: number, message: string) => {
    ctx.status = status;
    ctx.body = { error: message };
  };
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const permissionsWebhook = async (userId: string, revoked: Array<{ permission: string; targetIds?: string[] }>) => {
    const deliveries: Delivery[] = [];
    for (const app of state.apps.values()) {
      const subscription = app.subscriptions.get('permissions');
      if (!subscription) continue;
      const changes = revoked.map(({ permission, targetIds }) => ({
        field: permission,
        value: { verb: 'revoked', ...(targetIds ? { target_ids: targetIds } : {}) },
      }));
      deliveries.push(
        await deliver(app, subscription.callbackUrl, {
          object: 'permissions',
          entry: [{ id: userId, time: Math.floor(Date.now() / 1000), changes }],
        }),
      );
    }
    return deliveries;
  };

  router.post('/_sandbox/social_network/users', (ctx) => {
    const input = body(ctx) as { name?: string; pages?: number; adAccounts?: number; declineScopes?: string[] };
    const user = state.addUser(input);
    ctx.status = 201;
    ctx.body = { userId: user.id, name: user.name, pageIds: user.pageIds, adAccountIds: user.adAccountIds };
  });

  /** Who is signed in to the browser that opens the login dialog. */
  router.post('/_sandbox/social_network/login', (ctx) => {
    const userId = String(body(ctx).userId ?? '');
    if (!state.users.has(userId)) return fail(ctx, 404, 'no such person');
    state.browserUserId = userId;
    ctx.body = { userId };
  });

  /** A person removes the app in their settings: its tokens stop working, then the deauthorize callback and the permissions webhook. */
  router.post('/_sandbox/social_network/remove-app', async (ctx) => {
    const input = body(ctx) as { userId?: string; appId?: string };
    const user = state.users.get(String(input.userId ?? ''));
    const app = state.apps.get(String(input.appId ?? [...state.apps.keys()][0]));
    const granted = app && user?.grants.get(app.id);
    if (!user || !app || !granted) return fail(ctx, 404, 'the person has not authorised this app');
    user.grants.delete(app.id);
    const deauthorization = await deauthorize(
      app,
      app.deauthCallbackUrl ?? app.subscriptions.get('permissions')?.callbackUrl ?? null,
      user.id,
    );
    const permissions = await permissionsWebhook(
      user.id,
      [...granted].filter((p) => p !== 'public_profile').map((permission) => ({ permission })),
    );
    ctx.body = { deauthorization, permissions };
  });

  /** A person takes back one permission (for some pages or ad accounts only, with `targetIds`). */
  router.post('/_sandbox/social_network/revoke-permission', async (ctx) => {
    const input = body(ctx) as { userId?: string; appId?: string; permission?: string; targetIds?: string[] };
    const user = state.users.get(String(input.userId ?? ''));
    const granted = user?.grants.get(String(input.appId ?? [...state.apps.keys()][0]));
    if (!user || !granted || !input.permission || !granted.has(input.permission)) return fail(ctx, 404, 'the permission is not granted');
    if (!input.targetIds) granted.delete(input.permission);
    ctx.body = {
      permissions: await permissionsWebhook(user.id, [
        { permission: input.permission, ...(input.targetIds ? { targetIds: input.targetIds } : {}) },
      ]),
    };
  });

  /** A token stops working (the person changed their password, a session was ended): 190 with subcode 460. */
  router.post('/_sandbox/social_network/revoke', (ctx) => {
    const token = state.tokens.get(String(body(ctx).accessToken ?? ''));
    if (!token) return fail(ctx, 404, 'no such token');
    token.revoked = true;
    ctx.body = { revoked: true };
  });

  /** The app's dashboard: the deauthorize callback URL. */
  router.post('/_sandbox/social_network/app', (ctx) => {
    const input = body(ctx) as { appId?: string; deauthCallbackUrl?: string | null };
    const app = state.apps.get(String(input.appId ?? [...state.apps.keys()][0]));
    if (!app) return fail(ctx, 404, 'no such app');
    if (input.deauthCallbackUrl !== undefined) app.deauthCallbackUrl = input.deauthCallbackUrl;
    ctx.body = { appId: app.id, deauthCallbackUrl: app.deauthCallbackUrl, subscriptions: Object.fromEntries(app.subscriptions) };
  });

  /** The next Graph call answers this error (throttling with usage headers, an outage, a policy block …). */
  router.post('/_sandbox/social_network/fail-next', (ctx) => {
    const input = body(ctx) as { status?: number; code?: number; subcode?: number; message?: string; headers?: Record<string, string> };
    state.failNext = {
      // Meta answers a token that does not work (190) with HTTP 401, most other errors with 400.
      status: input.status ?? (input.code === 190 ? 401 : 400),
      code: input.code ?? 1,
      message: input.message ?? 'An unknown error occurred',
      headers: input.headers ?? {},
      ...(input.subcode === undefined ? {} : { subcode: input.subcode }),
    };
    ctx.body = { failNext: state.failNext };
  });
}
