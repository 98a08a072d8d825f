import type Router from '@koa/router';
import type { Context } from 'koa';
import type { SandboxStripeAccount } from './account.js';
import { DECLINED_CARD, StripeRefusal } from './objects.js';

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label,input,button{display:block;margin:.5rem 0}.error{color:#b00020}</style>
</head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

const amount = (price: Record<string, unknown>) =>
  `${((price.unit_amount as number) / 100).toFixed(2)} ${String(price.currency).toUpperCase()} / ${(price.recurring as { interval: string }).interval}`;

/**
 * The provider's hosted pages, as a person uses them in a browser: the checkout page (a card field; the card
 * 4000 0000 0000 0002 is declined) and the billing portal (cancel, take a cancellation back, change the plan).
 */
export function mountPages(router: Router, account: SandboxStripeAccount, changed: () => void): void {
  const payForm = (ctx: Context, error?: string) => {
    const session = account.find('sessions', ctx.params.id!, 'checkout session');
    const price = account.find('prices', String(session.line_items_price), 'price');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(
      'Sandbox checkout',
      `<p>Subscribe to <b>${escape(price.nickname)}</b>: ${escape(amount(price))}.</p>
${error ? `<p class="error">${escape(error)}</p>` : ''}
<form method="post"><label>Card number <input name="card" value="4242 4242 4242 4242" autocomplete="off"></label>
<p>${escape(DECLINED_CARD.replace(/(\d{4})/g, '$1 ').trim())} is declined.</p><button>Pay</button></form>
<p><a href="${escape(session.cancel_url)}">Back</a></p>`,
    );
  };
  router.get('/billing/pay/:id', (ctx) => payForm(ctx));
  router.post('/billing/pay/:id', (ctx) => {
    const card = String((ctx.request.body as { card?: string } | undefined)?.card ?? '');
    try {
      const session = account.pay(ctx.params.id!, card);
      changed();
      ctx.redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id));
    } catch (error) {
      if (!(error instanceof StripeRefusal)) throw error;
      ctx.status = error.status;
      payForm(ctx, error.message);
    }
  });

  router.get('/billing/portal/:id', (ctx) => {
    const portal = account.find('portals', ctx.params.id!, 'portal session');
    const subscriptions = account.subscriptionsOf(String(portal.customer)).filter((subscription) => subscription.status !== 'canceled');
    const prices = [...account.state.prices.values()].filter((price) => price.active);
    const forms = subscriptions.map((subscription) => {
      const item = (subscription.items as { data: Array<{ price: Record<string, unknown>; current_period_end: number }> }).data[0]!;
      const act = (what: string, label: string) =>
        `<form method="post" action="/billing/portal/${escape(portal.id)}/${escape(subscription.id)}/${what}"><button>${label}</button></form>`;
      return `<h2>${escape(item.price.nickname)} — ${escape(subscription.status)}</h2>
<p>${subscription.cancel_at_period_end ? 'Ends' : 'Renews'} on ${new Date(item.current_period_end * 1000).toISOString().slice(0, 10)}.</p>
${subscription.cancel_at_period_end ? act('undo', 'Keep the subscription') : act('period_end', 'Cancel at the end of the period')}
${act('now', 'Cancel now')}
<form method="post" action="/billing/portal/${escape(portal.id)}/${escape(subscription.id)}/switch"><label>Change plan
<select name="price">${prices.map((price) => `<option value="${escape(price.id)}">${escape(price.nickname)} — ${escape(amount(price))}</option>`).join('')}</select></label><button>Change</button></form>`;
    });
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(
      'Sandbox billing portal',
      `${forms.join('') || '<p>No subscription.</p>'}<p><a href="${escape(portal.return_url)}">Back</a></p>`,
    );
  });
  router.post('/billing/portal/:id/:subscription/:action', (ctx) => {
    const portal = account.find('portals', ctx.params.id!, 'portal session');
    const subscription = account.find('subscriptions', ctx.params.subscription!, 'subscription');
    if (subscription.customer !== portal.customer) ctx.throw(404);
    const { action } = ctx.params;
    if (action === 'switch') account.switchPrice(subscription.id, String((ctx.request.body as { price?: string }).price));
    else if (action === 'now' || action === 'period_end' || action === 'undo') account.cancelSubscription(subscription.id, action);
    else ctx.throw(404);
    changed();
    ctx.redirect(`/billing/portal/${portal.id}`);
  });

  router.get('/billing/invoices/:id', (ctx) => {
    const invoice = account.find('invoices', ctx.params.id!, 'invoice');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(
      `Invoice ${String(invoice.number ?? invoice.id)}`,
      `<p>Status: ${escape(invoice.status)}. Amount due: ${((invoice.amount_due as number) / 100).toFixed(2)} ${escape(String(invoice.currency).toUpperCase())}.</p>`,
    );
  });
}
