import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { until } from '../../support/wait.js';
import { animatedGif, download, noisyPng, upload, uploadMedia, uploadPhoto } from '../publishing/support.js';

describeApi('media library — GET /media, DELETE /media/{id}', (t) => {
  /** Where the local storage keeps a media file (src/modules/media/storage.ts). */
  const storedFile = (id: string) => join(t.app.services.config.dataDir, 'media', 'files', id.slice(-2), id);

  /** A post scheduled an hour ahead on a new bot of the owner, with the media. */
  async function scheduledPostWith(mediaId: string): Promise<string> {
    const bot = await connectBot(t.app, t.owner);
    const created = await schedule(bot.accountId, mediaId);
    expect(created.status, created.text).to.equal(201);
    return created.body.id as string;
  }

  const schedule = (accountId: string, mediaId: string) =>
    t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text: 'Fresh beans.',
        mediaIds: [mediaId],
        accountIds: [accountId],
        scheduledAt: new Date(Date.now() + 3600_000).toISOString(),
        platformOptions: { botchat: { chatIds: ['88'] } },
      },
    });

  /** Backends of the app's database waiting for a lock, with the statement each runs. */
  async function waitingForLocks(): Promise<string[]> {
    const { rows } = (await t.app.services.db.raw(
      "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )) as { rows: Array<{ query: string }> };
    return rows.map((row) => row.query);
  }

  describe('listMedia — GET /media', () => {
    itPagesByKeyset(t, 'listMedia', async (count) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        ids.unshift(
          i % 2 === 0
            ? await uploadPhoto(t.app, t.owner, `photo-${i}.png`)
            : await uploadMedia(t.app, t.owner, animatedGif(2, 10), `loop-${i}.gif`, 'image/gif'),
        );
      }
      return { path: '/media', ids, filter: { query: 'kind=gif', ids: ids.filter((_id, i) => (count - 1 - i) % 2 === 1) } };
    });

    it('filters by profile, kind and creation time; a restricted key sees only its profiles’ media', async () => {
      const other = await t.app.api.post('/profiles', { token: t.owner.session, body: { name: 'Other' } });
      const mine = await uploadPhoto(t.app, t.owner);
      const before = new Date().toISOString();
      const theirs = await uploadPhoto(t.app, { ...t.owner, profileId: other.body.id });
      // Of no profile: the owner's as a whole, which a restricted key never reads.
      const ownerWide = await upload(t.app, t.owner.key, { bytes: noisyPng(10, 10), filename: 'logo.png' });
      expect(ownerWide.status, ownerWide.text).to.equal(201);
      const ids = async (query: string, token = t.owner.key) => {
        const page = await t.app.api.get(`/media${query}`, { token });
        expect(page.status, page.text).to.equal(200);
        return page.body.data.map((media: { id: string }) => media.id);
      };
      expect(await ids('')).to.deep.equal([ownerWide.body.id, theirs, mine]);
      expect(await ids(`?profileId=${t.owner.profileId}`)).to.deep.equal([mine]);
      expect(await ids('?kind=video')).to.deep.equal([]);
      expect(await ids(`?from=${encodeURIComponent(before)}`)).to.deep.equal([ownerWide.body.id, theirs]);
      expect(await ids(`?to=${encodeURIComponent(before)}`)).to.deep.equal([mine]);
      const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      expect(await ids('', key)).to.deep.equal([mine]);
      const outside = await t.app.api.get(`/media?profileId=${other.body.id}`, { token: key });
      expect(outside.status).to.equal(403);
      expect(outside.body.code).to.equal('profile_out_of_scope');
      const backwards = await t.app.api.get(`/media?from=${encodeURIComponent(before)}&to=2020-01-01T00:00:00Z`, { token: t.owner.key });
      expect(backwards.status).to.equal(400);
      expect(backwards.body.errors[0]).to.include({ path: 'query/from', code: 'range' });
    });
  });

  describe('deleteMedia — DELETE /media/{id}', () => {
    it('deletes the media and then its stored file: the record and the URL answer 404', async () => {
      const id = await uploadMedia(t.app, t.owner, noisyPng(20, 20), 'gone.png', 'image/png');
      const { url } = (await t.app.api.get(`/media/${id}`, { token: t.owner.key })).body;
      expect(existsSync(storedFile(id))).to.equal(true);
      const deleted = await t.app.api.delete(`/media/${id}`, { token: t.owner.key });
      expect(deleted.status, deleted.text).to.equal(204);
      expect((await t.app.api.get(`/media/${id}`, { token: t.owner.key })).status).to.equal(404);
      expect((await download(t.app, url)).status).to.equal(404);
      expect(existsSync(storedFile(id))).to.equal(false);
      expect((await t.app.api.delete(`/media/${id}`, { token: t.owner.key })).status).to.equal(404);
    });

    it('refuses another profile’s media to a restricted key (403) and another owner’s (404), and keeps it', async () => {
      const other = await t.app.api.post('/profiles', { token: t.owner.session, body: { name: 'Other' } });
      const theirs = await uploadPhoto(t.app, { ...t.owner, profileId: other.body.id });
      const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      const refused = await t.app.api.delete(`/media/${theirs}`, { token: key });
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('profile_out_of_scope');
      const stranger = await newOwner(t.app.api);
      expect((await t.app.api.delete(`/media/${theirs}`, { token: stranger.key })).status).to.equal(404);
      expect(existsSync(storedFile(theirs))).to.equal(true);
    });

    it('answers 409 media_in_use while a scheduled post uses the media, naming it; once the post is cancelled, deletes', async () => {
      const id = await uploadPhoto(t.app, t.owner);
      const postId = await scheduledPostWith(id);
      const refused = await t.app.api.delete(`/media/${id}`, { token: t.owner.key });
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.code).to.equal('media_in_use');
      expect(refused.body.detail).to.include(`${postId} (scheduled)`);
      expect(existsSync(storedFile(id))).to.equal(true);
      expect((await t.app.api.delete(`/posts/${postId}`, { token: t.owner.key })).status).to.be.oneOf([200, 202, 204]);
      expect((await t.app.api.delete(`/media/${id}`, { token: t.owner.key })).status).to.equal(204);
    });

    it('a post saved while the delete waits for the media comes first: the delete is refused (409) and the post keeps its file', async () => {
      const id = await uploadPhoto(t.app, t.owner);
      const bot = await connectBot(t.app, t.owner);
      // The post holds its media lock and stops at its event (the outbox is held), before it commits.
      const held = await t.app.services.db.transaction();
      try {
        await held.raw('LOCK TABLE events IN SHARE MODE');
        const saving = schedule(bot.accountId, id);
        await until(waitingForLocks, {
          done: (qs) => qs.some((q) => /insert into "?events/i.test(q)),
          what: 'the post waiting at its event',
        });
        const deleting = t.app.api.delete(`/media/${id}`, { token: t.owner.key });
        await until(waitingForLocks, {
          done: (qs) => qs.some((q) => /from "media".*for update/is.test(q)),
          what: 'the delete waiting for the media',
        });
        await held.commit();
        const [saved, refused] = await Promise.all([saving, deleting]);
        expect(saved.status, saved.text).to.equal(201);
        expect(refused.status, refused.text).to.equal(409);
        expect(refused.body.code).to.equal('media_in_use');
      } finally {
        if (!held.isCompleted()) await held.rollback();
      }
      expect(existsSync(storedFile(id))).to.equal(true);
    });

    it('a post saved while the delete holds the media waits for it, and is then refused as naming unknown media: no post keeps a deleted file', async () => {
      const id = await uploadPhoto(t.app, t.owner);
      const bot = await connectBot(t.app, t.owner);
      // The delete holds the media and stops at its read of the posts (the table is held), before it commits.
      const held = await t.app.services.db.transaction();
      try {
        await held.raw('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
        const deleting = t.app.api.delete(`/media/${id}`, { token: t.owner.key });
        await until(waitingForLocks, {
          done: (qs) => qs.some((q) => /from "posts"/i.test(q)),
          what: 'the delete waiting at its read of the posts',
        });
        const saving = schedule(bot.accountId, id);
        await until(waitingForLocks, { done: (qs) => qs.length >= 2, what: 'the post waiting too' });
        await held.commit();
        const [deleted, refused] = await Promise.all([deleting, saving]);
        expect(deleted.status, deleted.text).to.equal(204);
        expect(refused.status, refused.text).to.equal(422);
        expect(refused.body.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)).to.deep.equal([
          'media_not_found body/mediaIds/0',
        ]);
      } finally {
        if (!held.isCompleted()) await held.rollback();
      }
      expect((await t.app.api.get('/posts', { token: t.owner.key })).body.data).to.deep.equal([]);
      expect(existsSync(storedFile(id))).to.equal(false);
    });
  });
});
