import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectCalendar } from '../../support/sandbox/calendar.js';
import { connectLocations } from '../../support/sandbox/search-suite.js';

describeApi('calendar events — conditional edits, idempotent creates, quotas and the accounts that cannot', (t) => {
  const { calendar } = t.sandbox;

  async function ownCalendar() {
    const accountId = await connectCalendar(t.app, t.owner);
    const { id } = await calendar.newCalendar({ summary: 'Writes' });
    const at = (path = '') => `/accounts/${accountId}/calendar/events${path}?calendarId=${encodeURIComponent(id)}`;
    return { accountId, calendarId: id, at };
  }
  const shoot = {
    summary: 'Shoot',
    start: { dateTime: '2026-12-05T09:00:00Z' },
    end: { dateTime: '2026-12-05T10:00:00Z' },
  };

  it('an edit made on a version someone changed since is refused with 409 calendar_event_changed, and their change stands', async () => {
    const { at, calendarId } = await ownCalendar();
    const created = await t.app.api.post(at(), { token: t.owner.key, body: shoot });
    const version = created.headers.get('etag')!;
    await calendar.editInApp(calendarId, created.body.id, { summary: 'Shoot (their title)' });

    const edit = await t.app.api.patch(at(`/${created.body.id}`), {
      token: t.owner.key,
      headers: { 'If-Match': version },
      body: { summary: 'Shoot (ours)' },
    });
    expect(edit.status, edit.text).to.equal(409);
    expect(edit.body.code).to.equal('calendar_event_changed');
    expect(edit.body.detail).to.include(created.body.id);
    const removal = await t.app.api.delete(at(`/${created.body.id}`), { token: t.owner.key, headers: { 'If-Match': version } });
    expect(removal.status).to.equal(409);
    const current = await t.app.api.get(at(`/${created.body.id}`), { token: t.owner.key });
    expect(current.body).to.include({ summary: 'Shoot (their title)', status: 'confirmed' });

    const retried = await t.app.api.patch(at(`/${created.body.id}`), {
      token: t.owner.key,
      headers: { 'If-Match': current.headers.get('etag')! },
      body: { summary: 'Shoot (ours)' },
    });
    expect(retried.status, retried.text).to.equal(200);
    expect(retried.body.summary).to.equal('Shoot (ours)');
    expect(
      (await t.app.api.delete(at(`/${created.body.id}`), { token: t.owner.key, headers: { 'If-Match': retried.body.etag } })).status,
    ).to.equal(204);
  });

  it('a create whose answer was lost, retried with its Idempotency-Key, makes one event and answers it', async () => {
    const { at, calendarId } = await ownCalendar();
    await calendar.failNext([{ kind: 'drop_after_insert' }]);
    const headers = { 'Idempotency-Key': 'shoot-2026-12-05' };
    const lost = await t.app.api.post(at(), { token: t.owner.key, headers, body: shoot });
    expect(lost.status, lost.text).to.equal(502);
    expect((await calendar.onPlatform(calendarId)).events, 'made, though its answer was lost').to.have.length(1);

    const retried = await t.app.api.post(at(), { token: t.owner.key, headers, body: shoot });
    expect(retried.status, retried.text).to.equal(201);
    const replayed = await t.app.api.post(at(), { token: t.owner.key, headers, body: shoot });
    expect(replayed.status).to.equal(201);
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    const { events } = await calendar.onPlatform(calendarId);
    expect(events.map((event) => event.id)).to.deep.equal([retried.body.id]);
    expect(replayed.body.id).to.equal(retried.body.id);
    expect(retried.body.id).to.match(/^[a-v0-9]{5,1024}$/);
  });

  it('the platform rate limiting the account (403 rateLimitExceeded or 429) is 429 platform_rate_limited with Retry-After', async () => {
    const { at, accountId } = await ownCalendar();
    await calendar.failNext([{ kind: 'rate_limited' }, { kind: 'too_many_requests' }]);
    for (const attempt of ['403 rateLimitExceeded', '429']) {
      const limited = await t.app.api.post(at(), { token: t.owner.key, body: shoot });
      expect(limited.status, attempt).to.equal(429);
      expect(limited.body.code).to.equal('platform_rate_limited');
      expect(Number(limited.headers.get('retry-after'))).to.be.above(0);
    }
    expect(
      (await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body.status,
      'a throttle is no reason to reconnect',
    ).to.equal('connected');
    expect((await t.app.api.post(at(), { token: t.owner.key, body: shoot })).status, 'once the quota is back').to.equal(201);
  });

  it('refuses accounts of other platforms (422 naming why) and a calendar account without the calendar permission (422 permission_missing)', async () => {
    const [location] = await connectLocations(t.app, t.owner);
    const refused = await t.app.api.get(`/accounts/${location}/calendar/events`, { token: t.owner.key });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('account_platform_unsupported');
    expect(refused.body.detail).to.match(/search_suite accounts have no calendar/);
    expect((await t.app.api.post(`/accounts/${location}/calendar/events`, { token: t.owner.key, body: shoot })).status).to.equal(422);

    const accountId = await connectCalendar(t.app, t.owner);
    await t.app.services
      .db('accounts')
      .where({ id: accountId })
      .update({ scopes: ['https://www.googleapis.com/auth/business.manage'] });
    const missing = await t.app.api.get(`/accounts/${accountId}/calendar/calendars`, { token: t.owner.key });
    expect(missing.status).to.equal(422);
    expect(missing.body).to.include({
      code: 'permission_missing',
      scope: 'https://www.googleapis.com/auth/calendar',
      action: 'reconnect_account',
    });
  });
});
