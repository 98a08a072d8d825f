import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectCalendar } from '../../support/sandbox/calendar.js';

interface Listed {
  id: string;
  summary: string | null;
  status: string;
  recurringEventId: string | null;
  start: { dateTime: string | null; date: string | null };
}

describeApi('calendar events — recurrence, instances and incremental sync', (t) => {
  const { calendar } = t.sandbox;

  /** The owner's calendar account, working on a calendar of this test's own. */
  async function ownCalendar() {
    const accountId = await connectCalendar(t.app, t.owner);
    const { id } = await calendar.newCalendar({ summary: 'Test calendar' });
    const at = (path = '', query = '') => `/accounts/${accountId}/calendar/events${path}?calendarId=${encodeURIComponent(id)}${query}`;
    return { accountId, calendarId: id, at };
  }

  it('expands a weekly series in its zone across the daylight-saving change; one instance moves, another is cancelled', async () => {
    const { at } = await ownCalendar();
    const series = await t.app.api.post(at(), {
      token: t.owner.key,
      body: {
        summary: 'Cupping',
        start: { dateTime: '2026-10-13T09:00:00+02:00', timeZone: 'Europe/Berlin' },
        end: { dateTime: '2026-10-13T10:00:00+02:00', timeZone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4', 'EXDATE;TZID=Europe/Berlin:20261020T090000'],
      },
    });
    expect(series.status, series.text).to.equal(201);
    expect(series.body.recurrence).to.have.length(2);

    const window = '&timeMin=2026-10-01T00:00:00Z&timeMax=2026-12-01T00:00:00Z';
    const listed = await t.app.api.get<{ data: Listed[] }>(at('', window), { token: t.owner.key });
    // 13 Oct (CEST, 07:00Z), 20 Oct excluded, 27 Oct and 3 Nov (CET, 08:00Z): still 09:00 in Berlin.
    expect(listed.body.data.map((event) => event.start.dateTime)).to.deep.equal([
      '2026-10-13T07:00:00Z',
      '2026-10-27T08:00:00Z',
      '2026-11-03T08:00:00Z',
    ]);
    expect(listed.body.data.every((event) => event.recurringEventId === series.body.id)).to.equal(true);

    const [, second, third] = listed.body.data;
    const moved = await t.app.api.patch(at(`/${second!.id}`), {
      token: t.owner.key,
      body: { summary: 'Cupping (late)', start: { dateTime: '2026-10-27T15:00:00+01:00' }, end: { dateTime: '2026-10-27T16:00:00+01:00' } },
    });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body).to.deep.include({ id: second!.id, recurringEventId: series.body.id, summary: 'Cupping (late)' });
    expect(moved.body.originalStart.dateTime).to.equal('2026-10-27T08:00:00Z');
    expect((await t.app.api.delete(at(`/${third!.id}`), { token: t.owner.key })).status).to.equal(204);

    const after = await t.app.api.get<{ data: Listed[] }>(at('', window), { token: t.owner.key });
    expect(after.body.data.map((event) => [event.summary, event.start.dateTime])).to.deep.equal([
      ['Cupping', '2026-10-13T07:00:00Z'],
      ['Cupping (late)', '2026-10-27T14:00:00Z'],
    ]);
    // A sync has the series once, with its rules, and its two exceptions apart: the moved and the cancelled instance.
    const synced = await t.app.api.get<{ data: Array<Listed & { recurrence: string[] }> }>(at('', '&sync=true'), { token: t.owner.key });
    expect(synced.body.data.map((event) => [event.id, event.status, event.recurrence.length])).to.deep.equal([
      [series.body.id, 'confirmed', 2],
      [second!.id, 'confirmed', 0],
      [third!.id, 'cancelled', 0],
    ]);
  });

  it('a daily all-day series: one day changes alone, the series keeps its other days', async () => {
    const { at } = await ownCalendar();
    const series = await t.app.api.post(at(), {
      token: t.owner.key,
      body: {
        summary: 'Market stall',
        start: { date: '2026-12-14' },
        end: { date: '2026-12-15' },
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      },
    });
    expect(series.status, series.text).to.equal(201);
    const middle = `${series.body.id}_20261215`;
    const read = await t.app.api.get(at(`/${middle}`), { token: t.owner.key });
    expect(read.status, read.text).to.equal(200);
    expect(read.body).to.deep.include({ recurringEventId: series.body.id, allDay: true });
    const changed = await t.app.api.patch(at(`/${middle}`), {
      token: t.owner.key,
      headers: { 'If-Match': read.body.etag },
      body: { location: 'Kollwitzplatz' },
    });
    expect(changed.status, changed.text).to.equal(200);
    const listed = await t.app.api.get<{ data: Array<Listed & { location: string | null }> }>(
      at('', '&timeMin=2026-12-13T00:00:00Z&timeMax=2026-12-20T00:00:00Z'),
      { token: t.owner.key },
    );
    expect(listed.body.data.map((event) => [event.start.date, event.location])).to.deep.equal([
      ['2026-12-14', null],
      ['2026-12-15', 'Kollwitzplatz'],
      ['2026-12-16', null],
    ]);
  });

  it('refuses rules the platform cannot expand, and a recurring timed event without its zone', async () => {
    const { at } = await ownCalendar();
    const body = (recurrence: string[], timeZone?: string) => ({
      summary: 'Rule',
      start: { dateTime: '2026-12-01T09:00:00+01:00', ...(timeZone ? { timeZone } : {}) },
      end: { dateTime: '2026-12-01T10:00:00+01:00', ...(timeZone ? { timeZone } : {}) },
      recurrence,
    });
    for (const line of [
      'RRULE:FREQ=FORTNIGHTLY',
      'RRULE:FREQ=DAILY;COUNT=two',
      'RRULE:FREQ=WEEKLY;BYDAY=XX',
      'EXDATE:2026-12-08',
      'RRULE:FREQ=DAILY;COUNT=2;UNTIL=20261231T000000Z',
    ]) {
      const refused = await t.app.api.post(at(), { token: t.owner.key, body: body([line], 'Europe/Berlin') });
      expect(refused.status, line).to.equal(400);
      expect(refused.body.errors[0]).to.include({ path: 'body/recurrence/0', code: 'recurrence' });
    }
    const zoneless = await t.app.api.post(at(), { token: t.owner.key, body: body(['RRULE:FREQ=DAILY;COUNT=2']) });
    expect(zoneless.status).to.equal(400);
    expect(zoneless.body.errors[0]).to.include({ path: 'body/start/timeZone', code: 'required' });
  });

  it('syncs the whole calendar page by page, then only the changes (deleted ones cancelled), then starts over when the token expired', async () => {
    const { at, calendarId } = await ownCalendar();
    const make = async (summary: string, day: number) => {
      const made = await t.app.api.post(at(), {
        token: t.owner.key,
        body: {
          summary,
          start: { date: `2026-12-${String(day).padStart(2, '0')}` },
          end: { date: `2026-12-${String(day + 1).padStart(2, '0')}` },
        },
      });
      expect(made.status, made.text).to.equal(201);
      return made.body as Listed & { etag: string };
    };
    const first = await make('One', 1);
    const second = await make('Two', 2);
    await make('Three', 3);

    const page1 = await t.app.api.get(at('', '&sync=true&limit=2'), { token: t.owner.key });
    expect(page1.status, page1.text).to.equal(200);
    expect(page1.body).to.include({ syncCursor: null, fullResync: false });
    expect(page1.body.nextCursor).to.be.a('string');
    const page2 = await t.app.api.get(`/accounts/${page1.body.data[0].accountId}/calendar/events?cursor=${page1.body.nextCursor}&limit=2`, {
      token: t.owner.key,
    });
    expect(page2.body.nextCursor).to.equal(null);
    expect([...page1.body.data, ...page2.body.data].map((event: Listed) => event.summary)).to.deep.equal(['One', 'Two', 'Three']);
    const syncCursor = page2.body.syncCursor as string;
    expect(syncCursor).to.be.a('string');
    // Clients keep it for later syncs: its form is the one given out before, which must keep being read.
    expect(Buffer.from(syncCursor, 'base64url').toString()).to.match(/^calsync1:\{"calendarId":"[^"]+","syncToken":"[^"]+"\}$/);

    expect((await t.app.api.patch(at(`/${first.id}`), { token: t.owner.key, body: { summary: 'One (moved)' } })).status).to.equal(200);
    expect((await t.app.api.delete(at(`/${second.id}`), { token: t.owner.key })).status).to.equal(204);
    await make('Four', 4);
    const changes = await t.app.api.get(at('', `&syncCursor=${syncCursor}`), { token: t.owner.key });
    expect(changes.status, changes.text).to.equal(200);
    expect(changes.body.fullResync).to.equal(false);
    expect(changes.body.data.map((event: Listed) => [event.summary, event.status])).to.deep.equal([
      ['One (moved)', 'confirmed'],
      ['Two', 'cancelled'],
      ['Four', 'confirmed'],
    ]);
    const nothing = await t.app.api.get(at('', `&syncCursor=${changes.body.syncCursor}`), { token: t.owner.key });
    expect(nothing.body.data).to.deep.equal([]);

    await calendar.expireSyncTokens(calendarId);
    const resync = await t.app.api.get(at('', `&syncCursor=${nothing.body.syncCursor}`), { token: t.owner.key });
    expect(resync.status, resync.text).to.equal(200);
    expect(resync.body.fullResync).to.equal(true);
    expect(resync.body.data.map((event: Listed) => event.summary)).to.deep.equal(['Three', 'One (moved)', 'Four']);
    expect(resync.body.syncCursor).to.be.a('string');
    const afterResync = await t.app.api.get(at('', `&syncCursor=${resync.body.syncCursor}`), { token: t.owner.key });
    expect(afterResync.body).to.deep.include({ data: [], fullResync: false });
  });

  it('refuses filters with a sync and a cursor that is not ours', async () => {
    const { at } = await ownCalendar();
    const filtered = await t.app.api.get(at('', '&sync=true&q=shoot'), { token: t.owner.key });
    expect(filtered.status).to.equal(400);
    expect(filtered.body.errors[0]).to.include({ path: 'query/q', code: 'sync_filter' });
    const forged = await t.app.api.get(at('', '&syncCursor=bm90LW91cnM'), { token: t.owner.key });
    expect(forged.status).to.equal(400);
    expect(forged.body.code).to.equal('invalid_cursor');
  });
});
