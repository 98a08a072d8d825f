import { expect } from 'chai';
import { SANDBOX_BILLING } from '../../../src/sandbox/billing/defaults.js';
import { SANDBOX_CLIENT } from '../../../src/sandbox/search-suite/platform.js';
import { consent } from '../../support/sandbox/oauth.js';
import { expectConforms } from './published-schemas.js';
import { sandboxForFile } from './sandbox.js';

/** A form body as Stripe takes one: nested members as `a[b][0]=…`. */
function stripeForm(body: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(body).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}[${key}]` : key;
    return value !== null && typeof value === 'object'
      ? stripeForm(value as Record<string, unknown>, name)
      : [`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`];
  });
}

/**
 * The sandbox's answers to the calls our adapters make, checked against what the platforms publish (Stripe's
 * OpenAPI spec3.json, Google's discovery documents; test/fixtures/platform-schemas/): the payment provider's
 * customers, prices, checkout and portal sessions, webhook endpoints and errors (src/modules/billing/provider.ts);
 * the search suite's accounts, locations with their readMask, daily metrics, calendar list and events
 * (src/platforms/search-suite/). Google's OAuth token answer is in no discovery document, nor are the v4 local posts.
 */
describe('sandbox answers against the platforms’ published schemas', () => {
  const sandbox = sandboxForFile();

  describe('payment provider — Stripe’s OpenAPI (spec3.json)', () => {
    async function stripe(method: string, path: string, body?: Record<string, unknown>): Promise<{ status: number; body: any }> {
      const answer = await fetch(`${sandbox.url()}/v1/${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${SANDBOX_BILLING.secretKey}`,
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: body ? stripeForm(body).join('&') : undefined,
      });
      return { status: answer.status, body: await answer.json() };
    }

    it('customers created, read and updated, and an unknown one’s error', async () => {
      const created = await stripe('POST', 'customers', { email: 'ana@example.com', metadata: { ownerId: 'own_1' } });
      expectConforms('stripe', 'customer', created.body);
      expectConforms('stripe', 'customer', (await stripe('GET', `customers/${created.body.id}`)).body);
      expectConforms('stripe', 'customer', (await stripe('POST', `customers/${created.body.id}`, { email: 'ana@new.example' })).body);
      const missing = await stripe('POST', 'customers/cus_nothing', { email: 'x@example.com' });
      expect(missing.status).to.equal(404);
      expectConforms('stripe', 'error', missing.body);
    });

    it('prices listed, checkout sessions made and read, a portal session', async () => {
      const prices = (await stripe('GET', 'prices?active=true')).body;
      expect(prices).to.include({ object: 'list' });
      for (const price of prices.data) expectConforms('stripe', 'price', price);
      const customer = (await stripe('POST', 'customers', { email: 'pay@example.com' })).body;
      const session = await stripe('POST', 'checkout/sessions', {
        customer: customer.id,
        mode: 'subscription',
        line_items: [{ price: prices.data[0].id, quantity: 1 }],
        success_url: 'https://app.example/ok',
        cancel_url: 'https://app.example/no',
      });
      expect(session.status).to.equal(200);
      expectConforms('stripe', 'checkout.session', session.body);
      expectConforms('stripe', 'checkout.session', (await stripe('GET', `checkout/sessions/${session.body.id}`)).body);
      const portal = await stripe('POST', 'billing_portal/sessions', { customer: customer.id, return_url: 'https://app.example/billing' });
      expectConforms('stripe', 'billing_portal.session', portal.body);
    });

    it('webhook endpoints made, listed and deleted', async () => {
      const endpoint = await stripe('POST', 'webhook_endpoints', { url: 'https://app.example/webhooks/billing', enabled_events: ['*'] });
      expectConforms('stripe', 'webhook_endpoint', endpoint.body);
      for (const listed of (await stripe('GET', 'webhook_endpoints')).body.data) expectConforms('stripe', 'webhook_endpoint', listed);
      expectConforms('stripe', 'deleted_webhook_endpoint', (await stripe('DELETE', `webhook_endpoints/${endpoint.body.id}`)).body);
    });
  });

  describe('search suite — Google’s discovery documents', () => {
    let token = '';
    before('authorise the app as a business owner does', async () => {
      const authorize = new URL(`${sandbox.url()}/search_suite/o/oauth2/v2/auth`);
      authorize.search = new URLSearchParams({
        client_id: SANDBOX_CLIENT.id,
        redirect_uri: 'https://app.example/callback',
        response_type: 'code',
        access_type: 'offline',
        scope: 'https://www.googleapis.com/auth/business.manage https://www.googleapis.com/auth/calendar',
      }).toString();
      const code = (await consent(authorize, 'approve')).searchParams.get('code')!;
      const issued = await fetch(`${sandbox.url()}/search_suite/token`, {
        method: 'POST',
        body: new URLSearchParams({
          code,
          client_id: SANDBOX_CLIENT.id,
          client_secret: SANDBOX_CLIENT.secret,
          redirect_uri: 'https://app.example/callback',
          grant_type: 'authorization_code',
        }),
      });
      token = ((await issued.json()) as { access_token: string }).access_token;
    });

    async function google(method: string, path: string, body?: unknown): Promise<any> {
      const answer = await fetch(`${sandbox.url()}/search_suite/${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(answer.status, `${method} ${path}`).to.equal(200);
      return answer.json();
    }

    it('accounts, locations listed and read with the masks our adapter sends, daily metrics', async () => {
      const accounts = await google('GET', 'accounts/v1/accounts');
      expectConforms('mybusinessaccountmanagement-v1', 'ListAccountsResponse', accounts);
      const account = accounts.accounts[0].name;
      const locations = await google('GET', `businessinfo/v1/${account}/locations?readMask=name,title`);
      expectConforms('mybusinessbusinessinformation-v1', 'ListLocationsResponse', locations);
      const location = locations.locations[0].name;
      const read = await google('GET', `businessinfo/v1/${location}?readMask=name,title,websiteUri,categories,profile`);
      expectConforms('mybusinessbusinessinformation-v1', 'Location', read);
      const metrics = new URLSearchParams([
        ['dailyMetrics', 'WEBSITE_CLICKS'],
        ['dailyMetrics', 'CALL_CLICKS'],
        ...Object.entries({
          'dailyRange.startDate.year': '2026',
          'dailyRange.startDate.month': '1',
          'dailyRange.startDate.day': '1',
          'dailyRange.endDate.year': '2026',
          'dailyRange.endDate.month': '1',
          'dailyRange.endDate.day': '7',
        }),
      ]);
      expectConforms(
        'businessprofileperformance-v1',
        'FetchMultiDailyMetricsTimeSeriesResponse',
        await google('GET', `performance/v1/${location}:fetchMultiDailyMetricsTimeSeries?${metrics}`),
      );
    });

    it('the calendar list, and an event inserted, patched, replaced, read, listed as instances and deleted', async () => {
      expectConforms('calendar-v3', 'CalendarList', await google('GET', 'calendar/v3/users/me/calendarList'));
      expectConforms('calendar-v3', 'CalendarListEntry', await google('GET', 'calendar/v3/users/me/calendarList/primary'));
      const events = 'calendar/v3/calendars/primary/events';
      const inserted = await google('POST', events, {
        summary: 'Weekly roast',
        start: { dateTime: '2027-04-05T09:00:00', timeZone: 'Europe/Berlin' },
        end: { dateTime: '2027-04-05T10:00:00', timeZone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        attendees: [{ email: 'ana@example.com' }],
        reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }] },
      });
      expectConforms('calendar-v3', 'Event', inserted);
      expectConforms('calendar-v3', 'Event', await google('PATCH', `${events}/${inserted.id}`, { description: 'Bring cups' }));
      expectConforms('calendar-v3', 'Events', await google('GET', `${events}/${inserted.id}/instances`));
      const replaced = await google('PUT', `${events}/${inserted.id}`, {
        summary: 'Cupping',
        start: { dateTime: '2027-04-05T12:00:00Z' },
        end: { dateTime: '2027-04-05T13:00:00Z' },
      });
      expectConforms('calendar-v3', 'Event', replaced);
      expectConforms('calendar-v3', 'Event', await google('GET', `${events}/${inserted.id}`));
      expectConforms('calendar-v3', 'Events', await google('GET', `${events}?maxResults=5`));
    });
  });
});
