import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { eventsOf } from './posts-support.js';

interface Entry {
  postId: string;
  slotId: string;
  scheduledAt: string;
}

describeApi('queue — slots kept for some accounts of the profile (per-account schedules)', (t) => {
  let a: string;
  let b: string;
  beforeEach(async () => {
    a = (await connectBot(t.app, t.owner, 'A')).accountId;
    b = (await connectBot(t.app, t.owner, 'B')).accountId;
  });
  const slot = (dayOfWeek: string, time: string, accountIds?: string[] | null, token = t.owner.key) =>
    t.app.api.post('/queue/slots', {
      token,
      body: {
        profileId: t.owner.profileId,
        dayOfWeek,
        time,
        timezone: 'Europe/Berlin',
        ...(accountIds === undefined ? {} : { accountIds }),
      },
    });
  const queue = (accountIds: string[], text = 'Queued') =>
    t.app.api.post('/queue', {
      token: t.owner.key,
      body: { post: { text, accountIds, platformOptions: { botchat: { chatIds: ['1'] } } } },
    });
  const otherProfile = async () => {
    const profileId = (await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Other' } })).body.id as string;
    return { profileId, accountId: (await connectBot(t.app, { ...t.owner, profileId }, 'O')).accountId };
  };
  const queued = async () => (await t.app.api.get(`/queue?profileId=${t.owner.profileId}`, { token: t.owner.key })).body.data as Entry[];

  it('createQueueSlot / listQueueSlots — accountIds kept in id order (null: every account), listed by accountId; 400 empty, 404 another owner’s account, 403 under a restricted key, 422 another profile’s', async () => {
    const both = await slot('monday', '09:00', [b, a].sort().reverse());
    expect(both.status, JSON.stringify(both.body)).to.equal(201);
    expect(both.body.accountIds).to.deep.equal([a, b].sort());
    const every = await slot('monday', '09:00');
    expect([every.status, every.body.accountIds]).to.deep.equal([201, null]);
    const onlyB = await slot('tuesday', '09:00', [b]);
    expect((await slot('monday', '09:00', [a, b])).body.code, 'the same accounts in another order are the same slot').to.equal(
      'queue_slot_exists',
    );
    const forA = await t.app.api.get(`/queue/slots?accountId=${a}`, { token: t.owner.key });
    expect(forA.body.data.map((s: { id: string }) => s.id).sort()).to.deep.equal([both.body.id, every.body.id].sort());
    const forB = await t.app.api.get(`/queue/slots?accountId=${b}`, { token: t.owner.key });
    expect(forB.body.data.map((s: { id: string }) => s.id).sort()).to.deep.equal([both.body.id, every.body.id, onlyB.body.id].sort());

    const empty = await slot('friday', '09:00', []);
    expect([empty.status, empty.body.code]).to.deep.equal([400, 'validation_failed']);
    const other = await otherProfile();
    const elsewhere = await slot('friday', '09:00', [a, other.accountId]);
    expect([elsewhere.status, elsewhere.body.code]).to.deep.equal([422, 'account_not_in_profile']);
    expect(elsewhere.body.detail).to.include(other.accountId);
    const stranger = await newOwner(t.app.api);
    const theirs = (await connectBot(t.app, stranger, 'S')).accountId;
    expect((await slot('friday', '09:00', [theirs])).status).to.equal(404);
    expect((await t.app.api.get(`/queue/slots?accountId=${theirs}`, { token: t.owner.key })).status).to.equal(404);
    const scoped = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    expect((await slot('friday', '09:00', [other.accountId], scoped)).status).to.equal(403);
    expect((await t.app.api.get(`/queue/slots?accountId=${other.accountId}`, { token: scoped })).status).to.equal(403);
    const listed = await t.app.api.get(`/queue/slots?profileId=${t.owner.profileId}`, { token: t.owner.key });
    expect(listed.body.data, 'nothing refused was stored').to.have.length(3);
  });

  it('enqueuePost / getNextQueueSlot / previewQueue — a post takes the next free slot serving every one of its accounts; 422 naming the account no slot serves', async () => {
    const c = (await connectBot(t.app, t.owner, 'C')).accountId;
    const forA = await slot('monday', '09:00', [a]);
    const forB = await slot('monday', '09:00', [b]);
    expect(forB.status, 'one slot per account at the same time').to.equal(201);
    const first = await queue([a]);
    expect(first.body.slotId).to.equal(forA.body.id);
    const second = await queue([b]);
    expect(second.body).to.include({ slotId: forB.body.id, scheduledAt: first.body.scheduledAt });
    const nextA = await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}&accountIds=${a}`, { token: t.owner.key });
    expect(nextA.body)
      .to.include({ slotId: forA.body.id })
      .and.deep.include({ accountIds: [a] });
    expect(Date.parse(nextA.body.scheduledAt) - Date.parse(first.body.scheduledAt)).to.be.within(
      7 * 24 * 3600_000 - 3600_000,
      7 * 24 * 3600_000 + 3600_000,
    );

    const together = await queue([a, b]);
    expect([together.status, together.body.code]).to.deep.equal([422, 'queue_slot_unavailable']);
    expect(together.body.detail).to.include(`all of ${a}, ${b}`);
    const unserved = await queue([a, c]);
    expect([unserved.status, unserved.body.code]).to.deep.equal([422, 'queue_slot_unavailable']);
    expect(unserved.body.detail).to.include(c).and.not.include(a);
    const nextC = await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}&accountIds=${c}`, { token: t.owner.key });
    expect([nextC.status, nextC.body.code]).to.deep.equal([422, 'queue_slot_unavailable']);
    expect(nextC.body.detail).to.include(c);
    const dryRun = await t.app.api.post('/posts/validate', {
      token: t.owner.key,
      body: { text: 'Dry', accountIds: [c], useQueue: true, platformOptions: { botchat: { chatIds: ['1'] } } },
    });
    expect(dryRun.body.errors.map((e: { code: string; message: string }) => [e.code, e.message.includes(c)])).to.deep.equal([
      ['queue_slot_unavailable', true],
    ]);

    const every = await slot('thursday', '12:00');
    const both = await queue([a, b]);
    expect(both.body.slotId, 'only the slot for every account serves both').to.equal(every.body.id);
    const nextBoth = await t.app.api.get(`/queue/next-slot?profileId=${t.owner.profileId}&accountIds=${a},${b}`, { token: t.owner.key });
    expect(nextBoth.body).to.include({ slotId: every.body.id, accountIds: null });

    const preview = async (accounts?: string) => {
      const query = accounts ? `&accountIds=${accounts}` : '';
      const answer = await t.app.api.get(`/queue/preview?profileId=${t.owner.profileId}&days=14${query}`, { token: t.owner.key });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      return answer.body.occurrences as Array<{ slotId: string; accountIds: string[] | null; postId: string | null; scheduledAt: string }>;
    };
    const ofA = await preview(a);
    expect([...new Set(ofA.map((o) => o.slotId))].sort()).to.deep.equal([forA.body.id, every.body.id].sort());
    expect(ofA.find((o) => o.postId === first.body.postId)).to.include({ slotId: forA.body.id, scheduledAt: first.body.scheduledAt });
    expect(ofA.find((o) => o.slotId === forA.body.id)!.accountIds).to.deep.equal([a]);
    expect(ofA.find((o) => o.slotId === every.body.id)!.accountIds).to.equal(null);
    expect(ofA.map((o) => o.postId)).to.not.include(second.body.postId);
    expect([...new Set((await preview(`${a},${b}`)).map((o) => o.slotId))]).to.deep.equal([every.body.id]);
    expect(new Set((await preview()).map((o) => o.slotId)).size).to.equal(3);
    const other = await otherProfile();
    const elsewhere = await t.app.api.get(`/queue/preview?profileId=${t.owner.profileId}&accountIds=${other.accountId}`, {
      token: t.owner.key,
    });
    expect([elsewhere.status, elsewhere.body.code]).to.deep.equal([422, 'account_not_in_profile']);
  });

  it('updatePost — a queued post given accounts its slot does not serve moves to the next slot serving them all (post.scheduled with the new time); one its slot still serves keeps its place; none serving them is 422, nothing changed', async () => {
    const forA = await slot('monday', '09:00', [a]);
    const every = await slot('wednesday', '09:00');
    const first = await queue([a]);
    expect(first.body.slotId).to.equal(forA.body.id);
    const edit = (accountIds: string[]) => t.app.api.patch(`/posts/${first.body.postId}`, { token: t.owner.key, body: { accountIds } });

    const kept = await edit([a]);
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    expect(kept.body).to.include({ slotId: forA.body.id, scheduledAt: first.body.scheduledAt });

    const moved = await edit([a, b]);
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.slotId, 'only the slot for every account serves a and b').to.equal(every.body.id);
    const scheduled = (await eventsOf(t.app, first.body.postId)).filter((event) => event.name === 'post.scheduled');
    expect(scheduled.at(-1)!.data.scheduledAt).to.equal(moved.body.scheduledAt);

    await t.app.api.delete(`/queue/slots/${every.body.id}`, { token: t.owner.key });
    const before = (await t.app.api.get(`/posts/${first.body.postId}`, { token: t.owner.key })).body;
    const unserved = await edit([b]);
    expect([unserved.status, unserved.body.code]).to.deep.equal([422, 'queue_slot_unavailable']);
    expect((await t.app.api.get(`/posts/${first.body.postId}`, { token: t.owner.key })).body).to.deep.equal(before);
  });

  it('updateQueueSlot — changing its accounts re-places its queued posts in order (post.scheduled for each that moves); 422 naming the account left without a slot, nothing changed; 400, 403, 404, 422', async () => {
    const monday = await slot('monday', '09:00');
    const friday = await slot('friday', '17:00');
    const posts: Entry[] = [];
    for (const text of ['A1', 'A2', 'A3']) posts.push((await queue([a], text)).body);
    const inMonday = posts.filter((p) => p.slotId === monday.body.id);
    expect(inMonday.length).to.be.at.least(1);

    const changed = await t.app.api.patch(`/queue/slots/${monday.body.id}`, { token: t.owner.key, body: { accountIds: [b] } });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ id: monday.body.id, dayOfWeek: 'monday', time: '09:00' });
    expect(changed.body.accountIds).to.deep.equal([b]);
    const after = await queued();
    expect(after.map((e) => e.postId).sort()).to.deep.equal(posts.map((p) => p.postId).sort());
    expect(
      after.every((e) => e.slotId === friday.body.id),
      'a slot kept for b no longer serves the posts to a',
    ).to.equal(true);
    const movedTimes = inMonday.map((p) => after.find((e) => e.postId === p.postId)!.scheduledAt);
    expect([...movedTimes].sort(), 'the moved posts keep their order').to.deep.equal(movedTimes);
    for (const [index, post] of inMonday.entries()) {
      const scheduled = (await eventsOf(t.app, post.postId)).filter((e) => e.name === 'post.scheduled');
      expect(scheduled.map((e) => e.data.scheduledAt)).to.deep.equal([post.scheduledAt, movedTimes[index]]);
    }
    const stayed = posts.find((p) => p.slotId === friday.body.id);
    if (stayed) expect((await eventsOf(t.app, stayed.postId)).filter((e) => e.name === 'post.scheduled')).to.have.length(1);

    const stranded = await t.app.api.patch(`/queue/slots/${friday.body.id}`, { token: t.owner.key, body: { accountIds: [b] } });
    expect([stranded.status, stranded.body.code]).to.deep.equal([422, 'queue_slot_unavailable']);
    expect(stranded.body.detail).to.include(a);
    const slots = (await t.app.api.get(`/queue/slots?profileId=${t.owner.profileId}`, { token: t.owner.key })).body.data;
    expect(slots.find((s: { id: string }) => s.id === friday.body.id).accountIds, 'nothing was changed').to.equal(null);
    expect(await queued()).to.deep.equal(after);

    const patch = (body: object, token = t.owner.key) => t.app.api.patch(`/queue/slots/${friday.body.id}`, { token, body });
    expect((await patch({ accountIds: [] })).status).to.equal(400);
    const other = await otherProfile();
    const elsewhere = await patch({ accountIds: [other.accountId] });
    expect([elsewhere.status, elsewhere.body.code]).to.deep.equal([422, 'account_not_in_profile']);
    const stranger = await newOwner(t.app.api);
    expect((await patch({ accountIds: [(await connectBot(t.app, stranger, 'S')).accountId] })).status).to.equal(404);
    const scoped = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    expect((await patch({ accountIds: [other.accountId] }, scoped)).status).to.equal(403);
    const everyAgain = await t.app.api.patch(`/queue/slots/${monday.body.id}`, { token: t.owner.key, body: { accountIds: null } });
    expect([everyAgain.status, everyAgain.body.accountIds]).to.deep.equal([200, null]);
  });
});
