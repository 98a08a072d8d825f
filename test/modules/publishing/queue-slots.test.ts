import { expect } from 'chai';
import { DateTime } from 'luxon';
import { describeApi } from '../../support/harness.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { eventsOf, nextOffsetChange } from './posts-support.js';

describeApi('queue — the next free slot, a preview of the coming slots, changing a slot', (t) => {
  let bot: { accountId: string; token: string };
  beforeEach(async () => {
    bot = await connectBot(t.app, t.owner);
  });
  const draft = (text: string) => ({ text, accountIds: [bot.accountId], platformOptions: { botchat: { chatIds: ['1'] } } });
  const slot = (dayOfWeek: string, time: string, timezone = 'Europe/Berlin') =>
    t.app.api.post('/queue/slots', { token: t.owner.key, body: { profileId: t.owner.profileId, dayOfWeek, time, timezone } });
  const local = (iso: string, zone = 'Europe/Berlin') => DateTime.fromISO(iso, { zone }).toFormat('cccc HH:mm');

  it('getNextQueueSlot — 422 without slots; the occurrence POST /queue then takes; the one after once it is taken; 403 and 404', async () => {
    const none = await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}`, { token: t.owner.key });
    expect([none.status, none.body.code]).to.deep.equal([422, 'queue_slot_unavailable']);
    const monday = await slot('monday', '09:00');
    const next = await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}`, { token: t.owner.key });
    expect(next.status).to.equal(200);
    expect(next.body).to.include({ profileId: t.owner.profileId, slotId: monday.body.id, timezone: 'Europe/Berlin' });
    expect(local(next.body.scheduledAt)).to.equal('Monday 09:00');
    expect(DateTime.fromISO(next.body.localTime, { setZone: true }).toFormat('cccc HH:mm')).to.equal('Monday 09:00');
    expect(Date.parse(next.body.localTime)).to.equal(Date.parse(next.body.scheduledAt));
    const queued = await t.app.api.post('/queue', { token: t.owner.key, body: { post: draft('First') } });
    expect(queued.body.scheduledAt).to.equal(next.body.scheduledAt);
    const after = await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}`, { token: t.owner.key });
    expect(Date.parse(after.body.scheduledAt) - Date.parse(next.body.scheduledAt)).to.be.within(
      7 * 24 * 3600_000 - 3600_000,
      7 * 24 * 3600_000 + 3600_000,
    );
    const other = (await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Other' } })).body.id as string;
    const scoped = await restrictedKey(t.app.api, t.owner, [other]);
    expect((await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}`, { token: scoped })).status).to.equal(403);
    const stranger = await newOwner(t.app.api);
    expect((await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}`, { token: stranger.key })).status).to.equal(404);
  });

  it('previewQueue — every occurrence of the window soonest first, with the post queued at each; 09:00 local across a daylight-saving change', async () => {
    const sunday = await slot('sunday', '09:00');
    const night = await slot('sunday', '02:30');
    const first = await t.app.api.post('/queue', { token: t.owner.key, body: { post: draft('One') } });
    const preview = await t.app.api.get(`/queue/preview?profileId=${t.owner.profileId}&days=14`, { token: t.owner.key });
    expect(preview.status).to.equal(200);
    expect(preview.body.occurrences).to.have.length(4);
    expect(preview.body.occurrences[0]).to.include({
      postId: first.body.postId,
      slotId: first.body.slotId,
      scheduledAt: first.body.scheduledAt,
    });
    expect(preview.body.occurrences.slice(1).map((o: { postId: string | null }) => o.postId)).to.deep.equal([null, null, null]);

    // A window around the zone's next change: each Sunday is 09:00 there, an hour apart in UTC; 02:30 on the night the clocks skip it is 03:30.
    const change = nextOffsetChange('Europe/Berlin', DateTime.now());
    const from = change.minus({ days: 8 }).toUTC().toISO();
    const around = await t.app.api.get(`/queue/preview?profileId=${t.owner.profileId}&days=15&from=${encodeURIComponent(from!)}`, {
      token: t.owner.key,
    });
    expect(around.status, JSON.stringify(around.body)).to.equal(200);
    const nines = around.body.occurrences.filter((o: { slotId: string }) => o.slotId === sunday.body.id);
    expect(nines.map((o: { scheduledAt: string }) => local(o.scheduledAt))).to.deep.equal(['Sunday 09:00', 'Sunday 09:00']);
    expect(new Set(nines.map((o: { localTime: string }) => o.localTime.slice(-6))).size, 'two UTC offsets').to.equal(2);
    const nights = around.body.occurrences.filter((o: { slotId: string }) => o.slotId === night.body.id);
    const sameDay = nights.find((o: { scheduledAt: string }) => DateTime.fromISO(o.scheduledAt).hasSame(change, 'day'));
    if (change.month === 3) expect(local(sameDay.scheduledAt)).to.equal('Sunday 03:30');
    const tooFar = await t.app.api.get(
      `/queue/preview?profileId=${t.owner.profileId}&from=${encodeURIComponent(DateTime.now().plus({ days: 400 }).toUTC().toISO()!)}`,
      { token: t.owner.key },
    );
    expect(tooFar.status).to.equal(400);
  });

  it('updateQueueSlot — the posts queued in it move, in order, to its new occurrences and emit post.scheduled again; 409 for a slot that exists, 400, 403', async () => {
    const monday = await slot('monday', '09:00');
    const friday = await slot('friday', '17:00');
    const posts = [];
    for (const text of ['A', 'B', 'C'])
      posts.push((await t.app.api.post('/queue', { token: t.owner.key, body: { post: draft(text) } })).body);
    const inMonday = posts.filter((p) => p.slotId === monday.body.id);
    expect(inMonday.length).to.be.at.least(1);

    const changed = await t.app.api.patch(`/queue/slots/${monday.body.id}`, {
      token: t.owner.key,
      body: { dayOfWeek: 'tuesday', time: '10:30' },
    });
    expect(changed.status).to.equal(200);
    expect(changed.body).to.include({ id: monday.body.id, dayOfWeek: 'tuesday', time: '10:30', timezone: 'Europe/Berlin' });
    const queue = (await t.app.api.get(`/queue?profileId=${t.owner.profileId}`, { token: t.owner.key })).body.data as Array<{
      postId: string;
      slotId: string;
      scheduledAt: string;
    }>;
    expect(queue.map((entry) => entry.postId).sort()).to.deep.equal(posts.map((p) => p.postId).sort());
    for (const entry of queue.filter((e) => e.slotId === monday.body.id)) expect(local(entry.scheduledAt)).to.equal('Tuesday 10:30');
    for (const entry of queue.filter((e) => e.slotId === friday.body.id)) expect(local(entry.scheduledAt)).to.equal('Friday 17:00');
    const moved = queue.filter((e) => inMonday.some((p) => p.postId === e.postId));
    const movedTimes = inMonday.map((p) => moved.find((e) => e.postId === p.postId)!.scheduledAt);
    expect([...movedTimes].sort(), 'the moved posts keep their order').to.deep.equal(movedTimes);
    const scheduledEvents = await eventsOf(t.app, inMonday[0]!.postId);
    expect(scheduledEvents.filter((e) => e.name === 'post.scheduled').map((e) => e.data.scheduledAt)).to.deep.equal([
      inMonday[0]!.scheduledAt,
      movedTimes[0],
    ]);

    const clash = await t.app.api.patch(`/queue/slots/${monday.body.id}`, {
      token: t.owner.key,
      body: { dayOfWeek: 'friday', time: '17:00' },
    });
    expect([clash.status, clash.body.code]).to.deep.equal([409, 'queue_slot_exists']);
    const badZone = await t.app.api.patch(`/queue/slots/${monday.body.id}`, {
      token: t.owner.key,
      body: { timezone: 'Mars/Olympus_Mons' },
    });
    expect(badZone.status).to.equal(400);
    expect((await t.app.api.patch(`/queue/slots/${monday.body.id}`, { token: t.owner.key, body: {} })).status).to.equal(400);
    const other = (await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Other' } })).body.id as string;
    const scoped = await restrictedKey(t.app.api, t.owner, [other]);
    expect((await t.app.api.patch(`/queue/slots/${monday.body.id}`, { token: scoped, body: { time: '11:00' } })).status).to.equal(403);
    const after = (await t.app.api.get(`/queue?profileId=${t.owner.profileId}`, { token: t.owner.key })).body.data;
    expect(after).to.deep.equal(queue);
  });
});
