import { expect } from 'chai';
import { google, type calendar_v3 } from 'googleapis';
import { SANDBOX_CLIENT } from '../../../src/sandbox/search-suite/platform.js';
import { consent } from '../../support/sandbox/oauth.js';
import { sandboxForFile } from './sandbox.js';

/** Where the sandbox serves each Google host's API. */
const GOOGLE_HOSTS: Record<string, string> = {
  'www.googleapis.com': '/search_suite',
  'mybusinessaccountmanagement.googleapis.com': '/search_suite/accounts',
  'mybusinessbusinessinformation.googleapis.com': '/search_suite/businessinfo',
  'businessprofileperformance.googleapis.com': '/search_suite/performance',
};

const SCOPES = ['https://www.googleapis.com/auth/business.manage', 'https://www.googleapis.com/auth/calendar'];

/** A Google API error as googleapis (gaxios) throws it: the status and Google's error body. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; error: Record<string, unknown> }> {
  const error = (await call.then(
    () => expect.fail('the call succeeded'),
    (thrown: unknown) => thrown,
  )) as { status?: number; response?: { status: number; data: { error: Record<string, unknown> } } };
  return { status: error.response!.status, error: error.response!.data.error };
}

describe('sandbox search suite — through googleapis (175.0.0)', () => {
  const sandbox = sandboxForFile();
  const root = (api: string) => `${sandbox.url()}/search_suite/${api}`;
  let auth: InstanceType<typeof google.auth.OAuth2>;
  let refreshToken: string;

  before('authorise the app as a business owner does', async () => {
    auth = new google.auth.OAuth2({
      clientId: SANDBOX_CLIENT.id,
      clientSecret: SANDBOX_CLIENT.secret,
      redirectUri: 'https://app.example/callback',
      endpoints: {
        oauth2AuthBaseUrl: root('o/oauth2/v2/auth'),
        oauth2TokenUrl: root('token'),
        oauth2RevokeUrl: root('revoke'),
      },
    });
    // googleapis resolves an API's path against a rootUrl's host alone, dropping the sandbox's path prefix: its
    // requests to Google's hosts are sent to the sandbox's paths for them instead.
    auth.transporter.interceptors.request.add({
      resolved: async (config) => {
        const url = new URL(config.url);
        const prefix = GOOGLE_HOSTS[url.host];
        return prefix === undefined ? config : { ...config, url: new URL(`${sandbox.url()}${prefix}${url.pathname}${url.search}`) };
      },
    });
    const back = await consent(auth.generateAuthUrl({ scope: SCOPES, access_type: 'offline', state: 's1' }), 'approve');
    const { tokens } = await auth.getToken(back.searchParams.get('code')!);
    refreshToken = tokens.refresh_token!;
    auth.setCredentials(tokens);
  });

  const calendar = () => google.calendar({ version: 'v3', auth });
  const businessInfo = () => google.mybusinessbusinessinformation({ version: 'v1', auth });

  it('lists the accounts and their locations, with the readMask applied', async () => {
    const accounts = google.mybusinessaccountmanagement({ version: 'v1', auth });
    const { data } = await accounts.accounts.list();
    const account = data.accounts![0]!.name!;
    const listed = await businessInfo().accounts.locations.list({ parent: account, readMask: 'name,title' });
    expect(listed.data.locations!.map((location) => Object.keys(location).sort())).to.deep.equal([
      ['name', 'title'],
      ['name', 'title'],
    ]);
    const location = await businessInfo().locations.get({
      name: listed.data.locations![0]!.name!,
      readMask: 'title,categories.primaryCategory',
    });
    expect(location.data).to.deep.equal({ title: 'Acme Coffee — Mitte', categories: { primaryCategory: { displayName: 'Coffee shop' } } });
  });

  it('refuses a locations list without readMask: 400 INVALID_ARGUMENT naming read_mask', async () => {
    const { status, error } = await refusal(businessInfo().accounts.locations.list({ parent: 'accounts/1010' }));
    expect(status).to.equal(400);
    expect(error).to.nested.include({ status: 'INVALID_ARGUMENT', 'details[0].fieldViolations[0].field': 'read_mask' });
    expect((await refusal(businessInfo().locations.get({ name: 'locations/2020', readMask: 'title,nothing' }))).status).to.equal(400);
  });

  it('reads daily metrics with the client’s dailyRange.startDate.year form', async () => {
    const performance = google.businessprofileperformance({ version: 'v1', auth });
    const { data } = await performance.locations.fetchMultiDailyMetricsTimeSeries({
      location: 'locations/2020',
      dailyMetrics: ['WEBSITE_CLICKS', 'CALL_CLICKS'],
      'dailyRange.startDate.year': 2026,
      'dailyRange.startDate.month': 1,
      'dailyRange.startDate.day': 1,
      'dailyRange.endDate.year': 2026,
      'dailyRange.endDate.month': 1,
      'dailyRange.endDate.day': 7,
    });
    const series = data.multiDailyMetricTimeSeries![0]!.dailyMetricTimeSeries!;
    expect(series.map((entry) => entry.dailyMetric)).to.deep.equal(['WEBSITE_CLICKS', 'CALL_CLICKS']);
    expect(series[0]!.timeSeries!.datedValues).to.have.length(7);
    expect(series[0]!.timeSeries!.datedValues![0]!.date).to.deep.equal({ year: 2026, month: 1, day: 1 });
  });

  it('inserts, patches, replaces (PUT) and deletes an event', async () => {
    const inserted = await calendar().events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Tasting',
        location: 'Mitte',
        start: { dateTime: '2027-03-01T10:00:00Z' },
        end: { dateTime: '2027-03-01T11:00:00Z' },
      },
    });
    const id = inserted.data.id!;
    const patched = await calendar().events.patch({ calendarId: 'primary', eventId: id, requestBody: { description: 'Bring cups' } });
    expect(patched.data).to.include({ summary: 'Tasting', description: 'Bring cups', location: 'Mitte', sequence: 1 });
    const replaced = await calendar().events.update({
      calendarId: 'primary',
      eventId: id,
      requestBody: { summary: 'Cupping', start: { dateTime: '2027-03-01T12:00:00Z' }, end: { dateTime: '2027-03-01T13:00:00Z' } },
    });
    expect(replaced.data).to.include({ id, summary: 'Cupping', sequence: 2, status: 'confirmed' });
    expect(replaced.data).to.not.have.any.keys('description', 'location');
    const stale = await refusal(
      calendar().events.update(
        { calendarId: 'primary', eventId: id, requestBody: { summary: 'x' } },
        { headers: { 'If-Match': patched.data.etag! } },
      ),
    );
    expect(stale.status).to.equal(412);
    await calendar().events.delete({ calendarId: 'primary', eventId: id });
    expect((await calendar().events.get({ calendarId: 'primary', eventId: id })).data.status).to.equal('cancelled');
  });

  it('lists the instances of a recurring event, a changed one as changed', async () => {
    const series: calendar_v3.Schema$Event = (
      await calendar().events.insert({
        calendarId: 'primary',
        requestBody: {
          summary: 'Weekly roast',
          start: { dateTime: '2027-04-05T09:00:00', timeZone: 'Europe/Berlin' },
          end: { dateTime: '2027-04-05T10:00:00', timeZone: 'Europe/Berlin' },
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
        },
      })
    ).data;
    const first = await calendar().events.instances({ calendarId: 'primary', eventId: series.id! });
    expect(first.data.items!.map((item) => item.start!.dateTime)).to.deep.equal([
      '2027-04-05T09:00:00+02:00',
      '2027-04-12T09:00:00+02:00',
      '2027-04-19T09:00:00+02:00',
      '2027-04-26T09:00:00+02:00',
    ]);
    const second = first.data.items![1]!;
    await calendar().events.patch({ calendarId: 'primary', eventId: second.id!, requestBody: { summary: 'Roast, moved crew' } });
    const paged = await calendar().events.instances({ calendarId: 'primary', eventId: series.id!, maxResults: 2 });
    expect(paged.data.items!.map((item) => item.summary)).to.deep.equal(['Weekly roast', 'Roast, moved crew']);
    const rest = await calendar().events.instances({ calendarId: 'primary', eventId: series.id!, pageToken: paged.data.nextPageToken! });
    expect(rest.data.items).to.have.length(2);
    expect(rest.data.items!.every((item) => item.recurringEventId === series.id)).to.equal(true);
  });

  it("takes a local post's photo from this machine's address, and not in strict mode (plain HTTP: googleapis has no v4 local posts)", async () => {
    const accounts = google.mybusinessaccountmanagement({ version: 'v1', auth });
    const account = (await accounts.accounts.list()).data.accounts![0]!.name!;
    const location = (await businessInfo().accounts.locations.list({ parent: account, readMask: 'name' })).data.locations![0]!.name!;
    const post = () =>
      fetch(root(`v4/${account}/${location}/localPosts`), {
        method: 'POST',
        headers: { Authorization: `Bearer ${auth.credentials.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          topicType: 'STANDARD',
          summary: 'Fresh roast',
          media: [{ mediaFormat: 'PHOTO', sourceUrl: sandbox.photoUrl() }],
        }),
      });
    expect((await post()).status).to.equal(200);
    await sandbox.strictly('search_suite', async () => {
      const refused = await post();
      expect(refused.status).to.equal(400);
      expect(((await refused.json()) as { error: { status: string } }).error.status).to.equal('INVALID_ARGUMENT');
    });
  });

  it('revokes a token given in a form body, as Google documents, and one in the query, as the library sends it', async () => {
    const form = await fetch(root('revoke'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: auth.credentials.access_token! }),
    });
    expect(form.status).to.equal(200);
    expect((await auth.revokeToken(refreshToken)).status).to.equal(200);
    const { status, error } = await refusal(calendar().calendarList.list());
    expect(status).to.equal(401);
    expect(error).to.include({ status: 'UNAUTHENTICATED' });
  });
});
