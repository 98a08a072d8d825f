import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { SandboxStripeAccount } from './account.js';
import { type FormBody, StripeRefusal } from './objects.js';
import { SANDBOX_BILLING } from './defaults.js';

/** A fault the next API calls meet: a status before anything is done, or after the write (its answer lost). */
export interface ApiFault {
  status: 429 | 500;
  afterWrite?: boolean;
}

interface Remembered {
  route: string;
  /** The parameters of the first request with the key: another request with other ones is refused. */
  params: string;
  status: number;
  body: unknown;
}

/** The API's side of the sandbox: what the calls need besides the account (faults, idempotency, after-work). */
export interface ApiContext {
  account: SandboxStripeAccount;
  faults: ApiFault[];
  idempotency: Map<string, Remembered>;
  /** Runs after each call that may have changed something: deliver its events, keep the state. */
  changed(): void;
}

function list(data: unknown[], url: string) {
  return { object: 'list', data, has_more: false, url };
}

/** `lookup_keys[]`/`lookup_keys[0]` from a query string as the official clients encode arrays. */
function arrayParam(ctx: Context, name: string): string[] {
  const params = new URLSearchParams(ctx.querystring);
  return [...params.entries()].filter(([key]) => key === name || key.startsWith(`${name}[`)).map(([, value]) => value);
}

function refuse(ctx: Context, error: StripeRefusal): void {
  ctx.status = error.status;
  ctx.body = { error: { type: error.type, code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) } };
}

/** A body's parameters in one order, to tell whether two requests asked the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The provider's REST API (`/v1/...`, form-encoded bodies with brackets, `Authorization: Bearer sk_…`), the
 * calls the service makes. `Idempotency-Key` replays the first answer for the same key (a different call with it
 * is refused), so a client's retry after a lost answer never does a write twice.
 */
export function mountApi(router: Router, api: ApiContext): void {
  const { account } = api;
  const call =
    (write: boolean, run: (ctx: Context, body: FormBody) => unknown) =>
    async (ctx: Context): Promise<void> => {
      ctx.type = 'application/json';
      ctx.set('Request-Id', `req_${randomBytes(7).toString('hex')}`);
      if (ctx.get('Authorization') !== `Bearer ${SANDBOX_BILLING.secretKey}`) {
        refuse(ctx, new StripeRefusal(401, 'invalid_request_error', 'Invalid API Key provided.', 'api_key_invalid'));
        return;
      }
      // A fault after the write waits for a write.
      const fault = api.faults[0] && (write || !api.faults[0].afterWrite) ? api.faults.shift() : undefined;
      if (fault && !fault.afterWrite) {
        ctx.set('Stripe-Should-Retry', 'true');
        refuse(
          ctx,
          new StripeRefusal(fault.status, fault.status === 429 ? 'rate_limit_error' : 'api_error', 'A fault the sandbox was asked for.'),
        );
        return;
      }
      const key = write ? ctx.get('Idempotency-Key') : '';
      const route = `${ctx.method} ${ctx.path}`;
      const params = canonical(ctx.request.body ?? {});
      const remembered = key ? api.idempotency.get(key) : undefined;
      if (remembered) {
        if (remembered.route !== route) {
          refuse(ctx, new StripeRefusal(400, 'idempotency_error', 'Keys for idempotent requests can only be used for the same request.'));
          return;
        }
        if (remembered.params !== params) {
          refuse(
            ctx,
            new StripeRefusal(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            ),
          );
          return;
        }
        ctx.set('Idempotent-Replayed', 'true');
        ctx.status = remembered.status;
        ctx.body = remembered.body;
        return;
      }
      try {
        ctx.status = 200;
        ctx.body = run(ctx, (ctx.request.body ?? {}) as FormBody);
      } catch (error) {
        if (!(error instanceof StripeRefusal)) throw error;
        refuse(ctx, error);
      }
      if (key) api.idempotency.set(key, { route, params, status: ctx.status, body: ctx.body });
      if (write) api.changed();
      if (fault?.afterWrite) {
        ctx.set('Stripe-Should-Retry', 'true');
        refuse(ctx, new StripeRefusal(fault.status, 'api_error', 'A fault the sandbox was asked for, after the write.'));
      }
    };

  router.post(
    '/v1/customers',
    call(true, (_ctx, body) => account.createCustomer(body)),
  );
  router.get(
    '/v1/customers/:id',
    call(false, (ctx) => account.find('customers', ctx.params.id!, 'customer')),
  );
  router.post(
    '/v1/customers/:id',
    call(true, (ctx, body) => account.updateCustomer(ctx.params.id!, body)),
  );
  router.get(
    '/v1/prices',
    call(false, (ctx) => {
      const keys = arrayParam(ctx, 'lookup_keys');
      const prices = [...account.state.prices.values()].filter(
        (price) => (keys.length === 0 || keys.includes(String(price.lookup_key))) && (ctx.query.active !== 'true' || price.active),
      );
      return list(prices, '/v1/prices');
    }),
  );
  router.post(
    '/v1/checkout/sessions',
    call(true, (_ctx, body) => account.createCheckoutSession(body)),
  );
  router.get(
    '/v1/checkout/sessions/:id',
    call(false, (ctx) => account.find('sessions', ctx.params.id!, 'checkout session')),
  );
  router.post(
    '/v1/billing_portal/sessions',
    call(true, (_ctx, body) => account.createPortalSession(body)),
  );
  router.get(
    '/v1/subscriptions/:id',
    call(false, (ctx) => account.find('subscriptions', ctx.params.id!, 'subscription')),
  );
  router.get(
    '/v1/invoices/:id',
    call(false, (ctx) => account.find('invoices', ctx.params.id!, 'invoice')),
  );
  router.post(
    '/v1/invoices/:id/void',
    call(true, (ctx) => account.voidInvoice(ctx.params.id!)),
  );
  router.post(
    '/v1/credit_notes',
    call(true, (_ctx, body) => account.createCreditNote(body)),
  );
  router.get(
    '/v1/webhook_endpoints',
    call(false, () => list([...account.state.endpoints.values()], '/v1/webhook_endpoints')),
  );
  router.post(
    '/v1/webhook_endpoints',
    call(true, (_ctx, body) => {
      const endpoint = {
        id: account.id('we'),
        object: 'webhook_endpoint',
        url: String(body.url),
        enabled_events: body.enabled_events ?? ['*'],
        status: 'enabled',
        description: body.description ?? null,
        metadata: body.metadata ?? {},
        application: null,
        api_version: '2026-10-28.endive',
        created: account.now(),
        livemode: false,
      };
      account.state.endpoints.set(endpoint.id, endpoint);
      // Only the answer to its creation carries the signing secret, as at the provider.
      return { ...endpoint, secret: SANDBOX_BILLING.webhookSecret };
    }),
  );
  router.delete(
    '/v1/webhook_endpoints/:id',
    call(true, (ctx) => {
      account.find('endpoints', ctx.params.id!, 'webhook endpoint');
      account.state.endpoints.delete(ctx.params.id!);
      return { id: ctx.params.id, object: 'webhook_endpoint', deleted: true };
    }),
  );
  // Any other path of the API: the provider's JSON 404, which its clients read as an error.
  router.all(
    '/v1/*path',
    call(false, (ctx) => {
      throw new StripeRefusal(404, 'invalid_request_error', `Unrecognized request URL (${ctx.method}: ${ctx.path}).`);
    }),
  );
}
