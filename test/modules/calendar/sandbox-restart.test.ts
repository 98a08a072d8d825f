import { expect } from 'chai';
import { describeRestart } from '../../sandbox/restartable.js';
import { connectCalendar } from '../../support/sandbox/calendar.js';

describeRestart('sandbox — a restart under a connected calendar', (t) => {
  it('keeps its calendars, events and sync tokens: the sync goes on with what changed after the restart', async () => {
    const accountId = await connectCalendar(t.app, t.owner);
    const team = await t.people.calendar.newCalendar({ summary: 'Kept' });
    const at = (query = '') => `/accounts/${accountId}/calendar/events?calendarId=${encodeURIComponent(team.id)}${query}`;
    const body = (summary: string) => ({ summary, start: { date: '2026-12-10' }, end: { date: '2026-12-11' } });
    const before = await t.app.api.post(at(), { token: t.owner.key, body: body('Before') });
    const synced = await t.app.api.get(at('&sync=true'), { token: t.owner.key });
    expect(synced.body.data.map((event: { id: string }) => event.id)).to.deep.equal([before.body.id]);

    await t.restart();

    const after = await t.app.api.post(at(), { token: t.owner.key, body: body('After') });
    expect(after.status, after.text).to.equal(201);
    expect(after.body.id).to.not.equal(before.body.id);
    const changes = await t.app.api.get(at(`&syncCursor=${synced.body.syncCursor}`), { token: t.owner.key });
    expect(changes.body).to.deep.include({ fullResync: false });
    expect(changes.body.data.map((event: { summary: string }) => event.summary)).to.deep.equal(['After']);
    const read = await t.app.api.get(`/accounts/${accountId}/calendar/events/${before.body.id}?calendarId=${encodeURIComponent(team.id)}`, {
      token: t.owner.key,
    });
    expect(read.body).to.include({ summary: 'Before', etag: before.body.etag });
  });
});
