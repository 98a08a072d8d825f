import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { CloudState } from './state.js';
import { deliverChange } from './webhook.js';

/**
 * The people around the cloud API: a business that gets a number and a token, a person who writes to a number
 * (the platform then POSTs the signed webhook to each subscribed app), a business that revokes a token.
 */
export function mountCloudPeople(router: Router, state: CloudState): void {
  const fail = (ctx: RouterContext, status: number, message: string) => {
    ctx.status = status;
    ctx.body = { error: message };
  };

  router.post('/_sandbox/chatapp-cloud/numbers', (ctx) => {
    const body = (ctx.request.body ?? {}) as { verifiedName?: string; registered?: boolean; appSecret?: string; scopes?: string[] };
    const { waba, number, token } = state.addBusiness(body);
    ctx.status = 201;
    ctx.body = {
      wabaId: waba.id,
      phoneNumberId: number.id,
      displayPhoneNumber: number.displayPhoneNumber,
      verifiedName: number.verifiedName,
      accessToken: token.value,
      pin: number.pin,
      appId: token.appId,
    };
  });

  /**
   * A person writes to a number. The webhook goes to each app subscribed to the number's business account, at
   * its alternate callback URL, else at `webhookUrl` (standing for the app's callback URL in its dashboard).
   */
  router.post('/_sandbox/chatapp-cloud/messages', async (ctx) => {
    const body = (ctx.request.body ?? {}) as {
      phoneNumberId?: string;
      from?: string;
      name?: string;
      text?: string;
      webhookUrl?: string;
      /** A person known only by their business-scoped id (no number in the webhook). */
      userId?: string;
      /** Another kind of message than text: `type` and its member, as the webhook carries them. */
      content?: { type: string } & Record<string, unknown>;
    };
    const number = state.numbers.get(String(body.phoneNumberId ?? ''));
    if (!number) return fail(ctx, 404, 'no such phone number id');
    if (!number.registered) return fail(ctx, 409, 'the number is not registered with the cloud API');
    const from = String(body.from ?? '4915112345678').replace(/\D/g, '');
    const message = {
      ...(body.userId ? { from_user_id: body.userId } : { from }),
      id: `wamid.${randomBytes(24).toString('base64url')}`,
      timestamp: String(Math.floor(Date.now() / 1000)),
      ...(body.content ?? { type: 'text', text: { body: body.text ?? 'Hello!' } }),
    };
    const { payload, deliveries } = await deliverChange(
      state,
      number,
      {
        contacts: [{ profile: { name: body.name ?? 'Sam' }, ...(body.userId ? { user_id: body.userId } : { wa_id: from }) }],
        messages: [message],
      },
      body.webhookUrl,
    );
    if (deliveries.length === 0) return fail(ctx, 409, 'no app is subscribed to the business account');
    ctx.body = { payload, deliveries, webhookStatus: deliveries[0]!.status };
  });

  /** The business revokes a token (or deletes its system user): every later call with it answers 190. */
  router.post('/_sandbox/chatapp-cloud/revoke', (ctx) => {
    const token = state.tokens.get(String((ctx.request.body as { accessToken?: string } | undefined)?.accessToken ?? ''));
    if (!token) return fail(ctx, 404, 'no such token');
    token.revoked = true;
    ctx.body = { revoked: true };
  });
}
