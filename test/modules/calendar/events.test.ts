import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { connectCalendar, PRIMARY_CALENDAR } from '../../support/sandbox/calendar.js';

describeApi('calendar events — create, read, change, delete on the chosen calendar', (t) => {
  const { calendar } = t.sandbox;
  const events = (accountId: string, query = '') => `/accounts/${accountId}/calendar/events${query}`;

  it('creates a timed event with guests and reminders, reads it, changes it, deletes it; guests are emailed when asked', async () => {
    const accountId = await connectCalendar(t.app, t.owner);
    const created = await t.app.api.post(events(accountId, '?sendUpdates=all'), {
      token: t.owner.key,
      body: {
        summary: 'Product shoot for the winter blend',
        location: 'Acme Coffee, Torstraße 1, Berlin',
        start: { dateTime: '2026-12-01T09:00:00+01:00', timeZone: 'Europe/Berlin' },
        end: { dateTime: '2026-12-01T11:00:00+01:00', timeZone: 'Europe/Berlin' },
        attendees: [{ email: 'lena@acme.example', displayName: 'Lena Vogel' }],
        reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 30 }] },
      },
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.deep.include({ accountId, summary: 'Product shoot for the winter blend', allDay: false, status: 'confirmed' });
    expect(created.body.start).to.deep.equal({ dateTime: '2026-12-01T08:00:00Z', date: null, timeZone: 'Europe/Berlin' });
    expect(created.body.attendees).to.deep.equal([
      {
        email: 'lena@acme.example',
        displayName: 'Lena Vogel',
        optional: false,
        organizer: false,
        self: false,
        responseStatus: 'needsAction',
      },
    ]);
    expect(created.body.reminders).to.deep.equal({ useDefault: false, overrides: [{ method: 'popup', minutes: 30 }] });
    expect(created.headers.get('etag')).to.equal(created.body.etag);
    expect(created.body.conferenceUrl).to.equal(null);
    const id = created.body.id;

    const read = await t.app.api.get(events(accountId, `/${id}`), { token: t.owner.key });
    expect(read.status).to.equal(200);
    expect(read.body.etag).to.equal(created.body.etag);

    const changed = await t.app.api.patch(events(accountId, `/${id}`), {
      token: t.owner.key,
      body: { location: null, start: { dateTime: '2026-12-01T10:00:00+01:00' }, end: { dateTime: '2026-12-01T12:00:00+01:00' } },
    });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.location).to.equal(null);
    expect(changed.body.start).to.deep.equal({ dateTime: '2026-12-01T09:00:00Z', date: null, timeZone: 'Europe/Berlin' });
    expect(changed.body.summary).to.equal('Product shoot for the winter blend');
    expect(changed.body.etag).to.not.equal(created.body.etag);

    const endBeforeStart = await t.app.api.patch(events(accountId, `/${id}`), {
      token: t.owner.key,
      body: { end: { dateTime: '2026-12-01T08:00:00Z' } },
    });
    expect(endBeforeStart.status, 'a change the platform finds leaves the event ending before it starts').to.equal(400);
    expect(endBeforeStart.body.errors[0]).to.deep.include({ path: 'body', code: 'platform_refused' });

    const listed = await t.app.api.get(events(accountId, '?timeMin=2026-12-01T00:00:00Z&timeMax=2026-12-02T00:00:00Z&q=winter'), {
      token: t.owner.key,
    });
    expect(listed.body.data.map((event: { id: string }) => event.id)).to.include(id);

    expect((await t.app.api.delete(events(accountId, `/${id}?sendUpdates=all`), { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(events(accountId, `/${id}`), { token: t.owner.key })).status, 'deleting again').to.equal(204);
    const gone = await t.app.api.get(events(accountId, '?timeMin=2026-12-01T00:00:00Z&timeMax=2026-12-02T00:00:00Z&q=winter'), {
      token: t.owner.key,
    });
    expect(gone.body.data.map((event: { id: string }) => event.id)).to.not.include(id);
    expect((await t.app.api.get(events(accountId, `/${id}`), { token: t.owner.key })).body.status).to.equal('cancelled');

    const { updates } = await calendar.onPlatform(PRIMARY_CALENDAR);
    expect(updates.filter((update) => update.eventId === id).map(({ method, guests }) => ({ method, guests }))).to.deep.equal([
      { method: 'insert', guests: ['lena@acme.example'] },
      { method: 'patch', guests: [] },
      { method: 'delete', guests: ['lena@acme.example'] },
    ]);
  });

  it('makes all-day events (the end date exclusive) and refuses mixed kinds, a bad zone and an end before the start', async () => {
    const accountId = await connectCalendar(t.app, t.owner);
    const created = await t.app.api.post(events(accountId), {
      token: t.owner.key,
      body: { summary: 'Shop closed', start: { date: '2026-12-24' }, end: { date: '2026-12-27' }, transparency: 'transparent' },
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.deep.include({ allDay: true, transparency: 'transparent' });
    expect(created.body.start).to.deep.equal({ dateTime: null, date: '2026-12-24', timeZone: null });
    expect(created.body.end).to.deep.equal({ dateTime: null, date: '2026-12-27', timeZone: null });
    const window = await t.app.api.get(events(accountId, '?timeMin=2026-12-26T10:00:00Z&timeMax=2026-12-26T11:00:00Z'), {
      token: t.owner.key,
    });
    expect(window.body.data.map((event: { id: string }) => event.id)).to.include(created.body.id);

    const refusals = [
      [{ start: { date: '2026-12-24' }, end: { dateTime: '2026-12-25T10:00:00Z' } }, 'body/end', 'time_kind'],
      [{ start: { date: '2026-12-24' }, end: { date: '2026-12-24' } }, 'body/end', 'time_order'],
      [
        { start: { dateTime: '2026-12-24T10:00:00Z', timeZone: 'Europe/Bärlin' }, end: { dateTime: '2026-12-24T11:00:00Z' } },
        'body/start/timeZone',
        'time_zone',
      ],
    ] as const;
    for (const [times, path, code] of refusals) {
      const refused = await t.app.api.post(events(accountId), { token: t.owner.key, body: { summary: 'Nope', ...times } });
      expect(refused.status, JSON.stringify(times)).to.equal(400);
      expect(refused.body.errors).to.deep.include.members([
        { path, code, message: refused.body.errors.find((e: { path: string }) => e.path === path)?.message },
      ]);
    }
  });

  it('works on a calendar the account chooses: lists the calendars, and creates and lists events on a team calendar', async () => {
    const accountId = await connectCalendar(t.app, t.owner);
    const team = await calendar.newCalendar({ summary: 'Studio shoots', accessRole: 'writer' });
    const calendars = await t.app.api.get(`/accounts/${accountId}/calendar/calendars`, { token: t.owner.key });
    expect(calendars.status).to.equal(200);
    expect(calendars.body.data[0]).to.deep.include({ id: PRIMARY_CALENDAR, primary: true, accessRole: 'owner' });
    expect(calendars.body.data).to.deep.include({
      id: team.id,
      summary: 'Studio shoots',
      description: null,
      timeZone: 'Europe/Berlin',
      primary: false,
      accessRole: 'writer',
    });

    const onTeam = `?calendarId=${encodeURIComponent(team.id)}`;
    const created = await t.app.api.post(events(accountId, onTeam), {
      token: t.owner.key,
      body: { summary: 'Lookbook', start: { dateTime: '2026-12-03T09:00:00Z' }, end: { dateTime: '2026-12-03T10:00:00Z' } },
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.organizer).to.deep.include({ email: team.id });
    const listed = await t.app.api.get(events(accountId, `${onTeam}&timeMin=2026-12-01T00:00:00Z`), { token: t.owner.key });
    expect(listed.body.data.map((event: { summary: string }) => event.summary)).to.deep.equal(['Lookbook']);
    const primary = await calendar.onPlatform(PRIMARY_CALENDAR);
    expect(primary.events.map((event) => event.id)).to.not.include(created.body.id);
    expect(
      (await t.app.api.get(events(accountId, `/${created.body.id}`), { token: t.owner.key })).status,
      'not on the primary calendar',
    ).to.equal(404);

    const shared = await calendar.newCalendar({ summary: 'Holidays', accessRole: 'reader' });
    const readOnly = await t.app.api.post(events(accountId, `?calendarId=${encodeURIComponent(shared.id)}`), {
      token: t.owner.key,
      body: { summary: 'Mine', start: { date: '2026-12-24' }, end: { date: '2026-12-25' } },
    });
    expect(readOnly.status, 'a calendar shared to read only').to.equal(502);
    expect(readOnly.body.detail).to.include(`may not change calendar ${shared.id}`);
    expect((await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body.status, 'no reason to reconnect').to.equal(
      'connected',
    );

    const unknown = await t.app.api.get(events(accountId, '?calendarId=nobody%40nowhere.example'), { token: t.owner.key });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.code).to.equal('not_found');
  });

  it('attaches a new video meeting when asked, its link in conferenceUrl', async () => {
    const accountId = await connectCalendar(t.app, t.owner);
    const created = await t.app.api.post(events(accountId), {
      token: t.owner.key,
      body: {
        summary: 'Call with the roaster',
        start: { dateTime: '2026-12-02T15:00:00Z' },
        end: { dateTime: '2026-12-02T15:30:00Z' },
        createConference: true,
      },
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.conferenceUrl).to.match(/^https:\/\/meet\.sandbox\.example\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    const read = await t.app.api.get(events(accountId, `/${created.body.id}`), { token: t.owner.key });
    expect(read.body.conferenceUrl).to.equal(created.body.conferenceUrl);
  });

  it('pages a window in start order; the cursor keeps the calendar and the filters', async () => {
    const accountId = await connectCalendar(t.app, t.owner);
    const team = await calendar.newCalendar({ summary: 'Paged' });
    const onTeam = `?calendarId=${encodeURIComponent(team.id)}`;
    for (const [summary, hour] of [
      ['Third', 12],
      ['First', 8],
      ['Second', 10],
      ['Elsewhere', 9],
    ] as const) {
      const body = {
        summary: summary === 'Elsewhere' ? summary : `Tasting ${summary}`,
        start: { dateTime: `2026-12-07T${String(hour).padStart(2, '0')}:00:00Z` },
        end: { dateTime: `2026-12-07T${String(hour).padStart(2, '0')}:30:00Z` },
      };
      expect((await t.app.api.post(events(accountId, onTeam), { token: t.owner.key, body })).status).to.equal(201);
    }
    const first = await t.app.api.get(
      events(accountId, `${onTeam}&timeMin=2026-12-07T00:00:00Z&timeMax=2026-12-08T00:00:00Z&q=tasting&limit=2`),
      {
        token: t.owner.key,
      },
    );
    expect(first.body.data.map((event: { summary: string }) => event.summary)).to.deep.equal(['Tasting First', 'Tasting Second']);
    const next = await t.app.api.get(events(accountId, `?cursor=${first.body.nextCursor}&limit=2`), { token: t.owner.key });
    expect(next.body.data.map((event: { summary: string }) => event.summary)).to.deep.equal(['Tasting Third']);
    expect(next.body).to.include({ nextCursor: null, syncCursor: null, fullResync: false });
    const otherCalendar = await t.app.api.get(
      events(accountId, `?cursor=${first.body.nextCursor}&calendarId=${encodeURIComponent(PRIMARY_CALENDAR)}`),
      {
        token: t.owner.key,
      },
    );
    expect(otherCalendar.status).to.equal(400);
    expect(otherCalendar.body.code).to.equal('invalid_cursor');
    const otherWords = await t.app.api.get(events(accountId, `?cursor=${first.body.nextCursor}&q=elsewhere`), { token: t.owner.key });
    expect([otherWords.status, otherWords.body.code], 'a cursor with other filters').to.deep.equal([400, 'invalid_cursor']);
  });

  itPagesThroughPlatform(t, 'listCalendarEvents', async (count) => {
    const accountId = await connectCalendar(t.app, t.owner);
    const team = await calendar.newCalendar({ summary: 'Paged through' });
    const onTeam = `?calendarId=${encodeURIComponent(team.id)}`;
    const made: Array<{ id: string; summary: string }> = [];
    for (let i = 0; i < count; i++) {
      const at = `2026-12-09T${String(8 + i).padStart(2, '0')}`;
      const body = {
        summary: i % 2 ? `Call ${i}` : `Tasting ${i}`,
        start: { dateTime: `${at}:00:00Z` },
        end: { dateTime: `${at}:30:00Z` },
      };
      made.push((await t.app.api.post(events(accountId, onTeam), { token: t.owner.key, body })).body);
    }
    return {
      path: events(accountId, `${onTeam}&timeMin=2026-12-09T00:00:00Z&timeMax=2026-12-10T00:00:00Z`),
      ids: made.map((event) => event.id),
      filter: { query: 'q=tasting', ids: made.filter((event) => event.summary.startsWith('Tasting')).map((event) => event.id) },
    };
  });
});
