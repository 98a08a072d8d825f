import { expect } from 'chai';
import { DateTime } from 'luxon';
import { occurrenceInWeek } from '../../../src/modules/publishing/occurrences.js';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { restrictedKey } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { eventsOf, nextOffsetChange } from './posts-support.js';

describeApi('queue — weekly slots in a time zone, and posts in the next free one', (t) => {
  let bot: { accountId: string; token: string };
  beforeEach(async () => {
    bot = await connectBot(t.app, t.owner);
  });

  const draft = (text: string) => ({ text, accountIds: [bot.accountId], platformOptions: { botchat: { chatIds: ['1'] } } });

  it('createQueueSlot / listQueueSlots / deleteQueueSlot — weekly order, 409 for the same slot, 400 for an unknown zone', async () => {
    const slot = (dayOfWeek: string, time: string, timezone = 'Europe/Berlin') =>
      t.app.api.post('/queue/slots', { token: t.owner.key, body: { profileId: t.owner.profileId, dayOfWeek, time, timezone } });
    const thursday = await slot('thursday', '17:30');
    expect(thursday.status).to.equal(201);
    expect(thursday.body).to.include({ profileId: t.owner.profileId, dayOfWeek: 'thursday', time: '17:30', timezone: 'Europe/Berlin' });
    const monday = await slot('monday', '09:00');
    await slot('monday', '08:00', 'America/New_York');
    expect((await slot('monday', '09:00')).body.code).to.equal('queue_slot_exists');
    const badZone = await slot('monday', '09:00', 'Mars/Olympus_Mons');
    expect(badZone.status).to.equal(400);
    const first = await t.app.api.get('/queue/slots?limit=2', { token: t.owner.key });
    expect(first.body.data.map((s: { dayOfWeek: string; time: string }) => `${s.dayOfWeek} ${s.time}`)).to.deep.equal([
      'monday 08:00',
      'monday 09:00',
    ]);
    const rest = await t.app.api.get(`/queue/slots?limit=2&cursor=${first.body.nextCursor}`, { token: t.owner.key });
    expect(rest.body.data.map((s: { id: string }) => s.id)).to.deep.equal([thursday.body.id]);
    expect(rest.body.nextCursor).to.equal(null);
    expect((await t.app.api.delete(`/queue/slots/${monday.body.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/queue/slots/${monday.body.id}`, { token: t.owner.key })).status).to.equal(404);
    const other = await t.app.api.post('/profiles', { token: t.owner.session, body: { name: 'Other' } });
    const scoped = await restrictedKey(t.app.api, t.owner, [other.body.id]);
    expect((await t.app.api.delete(`/queue/slots/${thursday.body.id}`, { token: scoped })).status).to.equal(403);
    expect((await t.app.api.get('/queue/slots', { token: scoped })).body.data).to.have.length(0);
  });

  it('enqueuePost — fills a Sunday 09:00 Europe/Berlin slot week by week across a daylight-saving change: 09:00 local, UTC shifts by an hour', async () => {
    const slot = await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, dayOfWeek: 'sunday', time: '09:00', timezone: 'Europe/Berlin' },
    });
    expect((await t.app.api.post('/queue', { token: t.owner.key, body: { postId: 'post_01jd4a2b3c4d5e6f7g8h9j0k1m' } })).status).to.equal(
      404,
    );
    const change = nextOffsetChange('Europe/Berlin', DateTime.now());
    const entries: Array<{ postId: string; scheduledAt: string; slotId: string; timezone: string }> = [];
    while (entries.length === 0 || Date.parse(entries[entries.length - 1]!.scheduledAt) < change.toMillis() + 7 * 24 * 3600 * 1000) {
      const queued = await t.app.api.post('/queue', { token: t.owner.key, body: { post: draft(`Week ${entries.length + 1}`) } });
      expect(queued.status, JSON.stringify(queued.body)).to.equal(201);
      entries.push(queued.body);
      expect(entries.length).to.be.below(60);
    }
    const offsets = new Set<number>();
    entries.forEach((entry, index) => {
      const local = DateTime.fromISO(entry.scheduledAt, { zone: 'Europe/Berlin' });
      expect(`${local.weekdayLong} ${local.toFormat('HH:mm')}`).to.equal('Sunday 09:00');
      expect(entry).to.include({ slotId: slot.body.id, timezone: 'Europe/Berlin' });
      offsets.add(local.offset);
      if (index > 0)
        expect(local.diff(DateTime.fromISO(entries[index - 1]!.scheduledAt, { zone: 'Europe/Berlin' }), 'weeks').weeks).to.equal(1);
    });
    expect([...offsets].sort((a, b) => a - b)).to.deep.equal([60, 120]);
    const before = entries.find((e) => Date.parse(e.scheduledAt) < change.toMillis())!;
    const after = entries.find((e) => Date.parse(e.scheduledAt) > change.toMillis())!;
    const hourUtc = (entry: { scheduledAt: string }) => new Date(entry.scheduledAt).getUTCHours();
    const offsetHours = (entry: { scheduledAt: string }) => DateTime.fromISO(entry.scheduledAt, { zone: 'Europe/Berlin' }).offset / 60;
    expect(hourUtc(before)).to.equal(9 - offsetHours(before));
    expect(hourUtc(after)).to.equal(9 - offsetHours(after));
    expect(hourUtc(before)).to.not.equal(hourUtc(after));

    const listed = await t.app.api.get(`/queue?profileId=${t.owner.profileId}&limit=3`, { token: t.owner.key });
    expect(listed.body.data.map((e: { postId: string }) => e.postId)).to.deep.equal(entries.slice(0, 3).map((e) => e.postId));
    const next = await t.app.api.get(`/queue?profileId=${t.owner.profileId}&limit=3&cursor=${listed.body.nextCursor}`, {
      token: t.owner.key,
    });
    expect(next.body.data[0].postId).to.equal(entries[3]!.postId);
    const post = await t.app.api.get(`/posts/${entries[0]!.postId}`, { token: t.owner.key });
    expect(post.body).to.include({
      status: 'scheduled',
      slotId: slot.body.id,
      timezone: 'Europe/Berlin',
      scheduledAt: entries[0]!.scheduledAt,
    });
    expect((await eventsOf(t.app, entries[0]!.postId)).map((e) => e.name)).to.deep.equal(['post.scheduled']);
  });

  it('a slot at a local time the clocks skip moves on by the gap; one that happens twice is the standard-time one', () => {
    const slot = { dayOfWeek: 7, time: '02:30', timezone: 'Europe/Berlin' };
    const week = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Berlin' });
    expect(occurrenceInWeek(slot, week('2027-03-15')).toISOString()).to.equal('2027-03-21T01:30:00.000Z');
    expect(occurrenceInWeek(slot, week('2027-03-22')).toISOString()).to.equal('2027-03-28T01:30:00.000Z'); // 03:30 CEST
    expect(occurrenceInWeek(slot, week('2027-03-29')).toISOString()).to.equal('2027-04-04T00:30:00.000Z');
    expect(occurrenceInWeek(slot, week('2027-10-25')).toISOString()).to.equal('2027-10-31T01:30:00.000Z'); // 02:30 CET
    expect(
      occurrenceInWeek({ ...slot, time: '23:30', dayOfWeek: 1, timezone: 'America/New_York' }, week('2027-03-15')).toISOString(),
    ).to.equal('2027-03-16T03:30:00.000Z');
  });

  it('a cancelled post frees its slot and can be queued again; useQueue on POST /posts; 422 without slots', async () => {
    const none = await t.app.api.post('/posts', { token: t.owner.key, body: { ...draft('No slot'), useQueue: true } });
    expect(none.status).to.equal(422);
    expect(none.body.code).to.equal('queue_slot_unavailable');
    await t.app.api.post('/queue/slots', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, dayOfWeek: 'wednesday', time: '12:00', timezone: 'Asia/Tokyo' },
    });
    const first = await t.app.api.post('/posts', { token: t.owner.key, body: { ...draft('First'), useQueue: true } });
    expect(first.status).to.equal(201);
    expect(first.body).to.include({ status: 'scheduled', timezone: 'Asia/Tokyo' });
    const second = await t.app.api.post('/posts', { token: t.owner.key, body: { ...draft('Second'), useQueue: true } });
    expect(Date.parse(second.body.scheduledAt) - Date.parse(first.body.scheduledAt)).to.equal(7 * 24 * 3600 * 1000);
    expect((await t.app.api.delete(`/posts/${first.body.id}`, { token: t.owner.key })).body.status).to.equal('cancelled');
    // The freed slot is the soonest again: a new post takes it, and the cancelled one goes after the second.
    const third = await t.app.api.post('/queue', { token: t.owner.key, body: { post: draft('Third') } });
    expect(third.body.scheduledAt).to.equal(first.body.scheduledAt);
    const requeued = await t.app.api.post('/queue', { token: t.owner.key, body: { postId: first.body.id } });
    expect(requeued.status).to.equal(201);
    expect(Date.parse(requeued.body.scheduledAt) - Date.parse(second.body.scheduledAt)).to.equal(7 * 24 * 3600 * 1000);
    expect((await t.app.api.get(`/posts/${first.body.id}`, { token: t.owner.key })).body.targets[0].status).to.equal('scheduled');
    const published = await t.app.api.post('/posts', { token: t.owner.key, body: { ...draft('Now'), publishNow: true } });
    expect((await t.app.api.post('/queue', { token: t.owner.key, body: { postId: published.body.id } })).body.code).to.equal(
      'post_status_conflict',
    );
  });

  const slot = (profileId: string, dayOfWeek: string, time = '09:00') =>
    t.app.api.post('/queue/slots', { token: t.owner.key, body: { profileId, dayOfWeek, time, timezone: 'Europe/Berlin' } });

  itPagesByKeyset(t, 'listQueueSlots, filtered by profileId', async (count) => {
    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].slice(0, count);
    const made: Array<{ id: string; profileId: string }> = [];
    // Made from the end of the week: listed in the week's order all the same.
    for (const [n, day] of [...days.entries()].reverse()) {
      const profileId = n % 2 ? second.body.id : t.owner.profileId;
      made.unshift({ id: (await slot(profileId, day)).body.id, profileId });
    }
    const of = (profileId: string) => made.filter((item) => item.profileId === profileId).map((item) => item.id);
    // By profile (the older first), then Monday to Sunday.
    return {
      path: '/queue/slots',
      ids: [...of(t.owner.profileId), ...of(second.body.id)],
      filter: { query: `profileId=${second.body.id}`, ids: of(second.body.id) },
    };
  });

  itPagesByKeyset(t, 'listQueue', async (count) => {
    await slot(t.owner.profileId, 'tuesday');
    await slot(t.owner.profileId, 'friday', '18:00');
    const ids: string[] = [];
    for (let n = 0; n < count; n += 1)
      ids.push((await t.app.api.post('/queue', { token: t.owner.key, body: { post: draft(`Queued ${n}`) } })).body.postId);
    // Soonest first: each post took the next free slot.
    return {
      path: `/queue?profileId=${t.owner.profileId}`,
      ids,
      page: (body) => ({ data: body.data.map((entry: { postId: string }) => ({ id: entry.postId })), nextCursor: body.nextCursor }),
    };
  });

  itPagesByKeyset(t, 'listPosts filtered by account, after the latest post is queued', async (count) => {
    await slot(t.owner.profileId, 'tuesday');
    // A week ahead and more: every slot occurrence comes before all of them.
    const base = Date.now() + 8 * 24 * 3600 * 1000;
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const made: string[] = [];
    for (let n = 0; n < count; n += 1)
      made.unshift((await t.app.api.post('/posts', { token: t.owner.key, body: { ...draft(`Post ${n}`), scheduledAt: at(n) } })).body.id);
    const other = await connectBot(t.app, t.owner, 'Other');
    await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { ...draft('Elsewhere'), accountIds: [other.accountId], scheduledAt: at(count) },
    });
    // The latest post moves to the next Tuesday: from the top of the list to its end, for the account too.
    const [latest, ...rest] = made;
    expect((await t.app.api.post('/queue', { token: t.owner.key, body: { postId: latest } })).status).to.equal(201);
    return {
      path: `/posts?accountId=${bot.accountId}`,
      ids: [...rest, latest!],
      filter: { query: `to=${encodeURIComponent(at(0))}`, ids: [latest!] },
    };
  });
});
