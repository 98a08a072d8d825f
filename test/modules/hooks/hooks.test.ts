import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { emitEvent, type EventName } from '../../../src/modules/events/emit.js';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner, restrictedKey } from '../../support/owners.js';
import { quiescent, until } from '../../support/wait.js';
import { assertSigned, publishedData } from '../../support/webhooks.js';

describeApi('outgoing webhooks — /hooks', (t) => {
  async function createHook(token: string, events: string[] = ['message.received'], extra: Record<string, unknown> = {}) {
    const response = await t.app.api.post('/hooks', { token, body: { url: `${t.inbox.url}/hook`, events, ...extra } });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    return response.body as { id: string; secret: string; profileIds: string[] | null };
  }

  const MESSAGE = {
    accountId: 'acc_01jd3y6w7q5v8k0n2b4c6e8g1h',
    from: '+15551234567',
    text: 'hi',
    msgId: 'wamid.1',
    platform: 'chatapp-cloud',
  };

  /** An event of the test's owner, committed as a change in the service would emit it. */
  const emit = (name: EventName, data: unknown = MESSAGE, profileId: string | null = t.owner.profileId) =>
    emitEvent(t.app.services.db, { ownerId: t.owner.ownerId, profileId, name, data: data as never });

  describe('createHook — POST /hooks', () => {
    it('returns the secret once; reads never show it', async () => {
      const hook = await createHook(t.owner.key);
      expect(hook.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const read = await t.app.api.get(`/hooks/${hook.id}`, { token: t.owner.key });
      const listed = await t.app.api.get('/hooks', { token: t.owner.key });
      expect(read.text + listed.text).to.not.include(hook.secret);
      expect(read.body).to.not.have.property('secret');
      const row = await t.app.services.db('hooks').where({ id: hook.id }).first();
      expect(JSON.stringify(row)).to.not.include(hook.secret);
    });

    it('refuses a url that is not https with 400', async () => {
      const response = await t.app.api.post('/hooks', {
        token: t.owner.key,
        body: { url: 'http://example.com/hook', events: ['post.published'] },
      });
      expect(response.status).to.equal(400);
      expect(response.body.errors[0].path).to.equal('body/url');
    });

    it('refuses event names outside the list', async () => {
      const response = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/x`, events: ['post.exploded'] } });
      expect(response.status).to.equal(400);
    });

    it('refuses private, link-local and encoded addresses with 422 url_not_allowed', async () => {
      for (const url of [
        'https://10.0.0.1/h',
        'https://169.254.169.254/latest',
        'https://[::ffff:10.0.0.1]/h',
        'https://0x0a000001/h',
        'https://100.64.0.1/h',
        'https://[fd00::1]/h',
      ]) {
        const response = await t.app.api.post('/hooks', { token: t.owner.key, body: { url, events: ['post.published'] } });
        expect(response.status, url).to.equal(422);
        expect(response.body.code, url).to.equal('url_not_allowed');
      }
    });

    it('allows 20 hooks per owner and refuses the 21st with hook_limit_reached', async () => {
      await Promise.all(Array.from({ length: 20 }, () => createHook(t.owner.key)));
      const response = await t.app.api.post('/hooks', {
        token: t.owner.key,
        body: { url: `${t.inbox.url}/x`, events: ['post.published'] },
      });
      expect(response.status).to.equal(422);
      expect(response.body.code).to.equal('hook_limit_reached');
      expect(await t.app.services.db('hooks').where({ ownerId: t.owner.ownerId }).count('id as n').first()).to.deep.equal({ n: '20' });
    });
  });

  describe('delivery', () => {
    it('delivers a subscribed event, signed two ways over the raw body, with exactly the envelope', async () => {
      const hook = await createHook(t.owner.key, ['message.received']);
      await emit('message.received');
      const [request] = await t.inbox.waitFor(1);
      assertSigned(request!, hook.secret);
      expect(request!.headers['x-service-event']).to.equal('message.received');
      expect(request!.headers['x-service-delivery']).to.match(/^dlv_/).and.equal(request!.headers['webhook-id']);
      expect(request!.headers['content-type']).to.equal('application/json');
      expect(request!.headers['user-agent']).to.equal('Socialgate-Webhooks/1');
      const body = JSON.parse(request!.rawBody);
      expect(Object.keys(body)).to.deep.equal(['event', 'ownerId', 'profileId', 'data']);
      expect(body).to.deep.equal({ event: 'message.received', ownerId: t.owner.ownerId, profileId: t.owner.profileId, data: MESSAGE });
    });

    it('sends nothing for events the hook does not name, and nothing for a rolled-back change', async () => {
      await createHook(t.owner.key, ['post.published']);
      await emit('message.received');
      await t.app.services.db
        .transaction(async (trx) => {
          await emitEvent(trx, {
            ownerId: t.owner.ownerId,
            profileId: t.owner.profileId,
            name: 'post.published',
            data: publishedData('post_rolled_back'),
          });
          await trx.rollback();
        })
        .catch(() => {});
      await emit('post.published', publishedData('post_marker'));
      const [request] = await t.inbox.waitFor(1);
      await quiescent(t.app);
      expect(t.inbox.received).to.have.length(1);
      expect(JSON.parse(request!.rawBody).data).to.deep.equal(publishedData('post_marker'));
    });

    it('delivers to a hook the events emitted once it is created or set active again; an event no hook takes is written dispatched', async () => {
      const dispatchedAsWritten = (event: { createdAt: Date; dispatchedAt: Date | null }) =>
        event.dispatchedAt?.getTime() === event.createdAt.getTime();
      const before = await emit('message.received', { ...MESSAGE, text: 'before' });
      const hook = await createHook(t.owner.key);
      const first = await emit('message.received', { ...MESSAGE, text: 'first' });
      const unnamed = await emit('post.published', publishedData('post_unnamed'));
      await t.inbox.waitFor(1);
      expect((await t.app.api.patch(`/hooks/${hook.id}`, { token: t.owner.key, body: { active: false } })).status).to.equal(200);
      const paused = await emit('message.received', { ...MESSAGE, text: 'paused' });
      expect((await t.app.api.patch(`/hooks/${hook.id}`, { token: t.owner.key, body: { active: true } })).status).to.equal(200);
      const second = await emit('message.received', { ...MESSAGE, text: 'second' });
      await t.inbox.waitFor(2);
      await quiescent(t.app);

      expect(t.inbox.received.map((request) => JSON.parse(request.rawBody).data.text)).to.deep.equal(['first', 'second']);
      // Those no active hook took were never waited for: no fan-out reads nor marks them after their commit.
      expect([before, first, unnamed, paused, second].map(dispatchedAsWritten)).to.deep.equal([true, false, true, true, false]);
    });

    it('writes an event dispatched unless an active hook covers its profile: an owner-level event reaches only a hook of every profile', async () => {
      const scoped = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      await createHook(scoped);
      const ofProfile = await emit('message.received');
      const ofOwner = await emit('message.received', MESSAGE, null);
      expect([ofProfile.dispatchedAt, ofOwner.dispatchedAt?.getTime()]).to.deep.equal([null, ofOwner.createdAt.getTime()]);
      await t.inbox.waitFor(1);
      await createHook(t.owner.key);
      const ofOwnerNow = await emit('message.received', MESSAGE, null);
      expect(ofOwnerNow.dispatchedAt).to.equal(null);
      await t.inbox.waitFor(2);
      await quiescent(t.app);
      expect(t.inbox.received.map((request) => JSON.parse(request.rawBody).profileId)).to.deep.equal([t.owner.profileId, '']);
    });

    it('retries a failed attempt and records every attempt', async () => {
      const hook = await createHook(t.owner.key);
      let calls = 0;
      t.inbox.reply = () => (calls++ === 0 ? { status: 500, body: 'boom' } : { status: 204 });
      await emit('message.received');
      const [first, second] = await t.inbox.waitFor(2);
      expect(second!.headers['x-service-delivery']).to.equal(first!.headers['x-service-delivery']);
      expect(second!.rawBody).to.equal(first!.rawBody);
      await quiescent(t.app);
      const deliveries = await t.app.api.get(`/hooks/${hook.id}/deliveries`, { token: t.owner.key });
      const [delivery] = deliveries.body.data;
      expect(delivery).to.include({ status: 'succeeded', attemptCount: 2, nextAttemptAt: null });
      expect(delivery.attempts.map((a: { responseStatus: number }) => a.responseStatus)).to.deep.equal([500, 204]);
      expect(delivery.attempts[0]).to.include({ errorClass: 'http_status', responseSnippet: 'boom' });
    });

    it('does not follow redirects: a 3xx is a failed attempt', async () => {
      const hook = await createHook(t.owner.key);
      const elsewhere = `${t.inbox.url}/elsewhere`;
      t.inbox.reply = (request) =>
        request.headers['x-service-event'] ? { status: 302, headers: { Location: elsewhere } } : { status: 200 };
      await emit('message.received');
      await t.inbox.waitFor(1);
      await quiescent(t.app);
      expect(t.inbox.received.every((r) => r.headers['x-service-event'] === 'message.received')).to.equal(true);
      const deliveries = await t.app.api.get(`/hooks/${hook.id}/deliveries`, { token: t.owner.key });
      expect(deliveries.body.data[0].attempts[0]).to.include({ responseStatus: 302, errorClass: 'redirect' });
    });

    it('disables the hook at once on 410 Gone', async () => {
      const hook = await createHook(t.owner.key);
      t.inbox.reply = () => ({ status: 410 });
      await emit('message.received');
      await t.inbox.waitFor(1);
      await quiescent(t.app);
      const read = await t.app.api.get(`/hooks/${hook.id}`, { token: t.owner.key });
      expect(read.body).to.include({ active: false, disabledReason: 'endpoint_gone' });
      const deliveries = await t.app.api.get(`/hooks/${hook.id}/deliveries`, { token: t.owner.key });
      expect(deliveries.body.data[0]).to.include({ status: 'failed', attemptCount: 1 });
    });

    it('redelivers a delivery with the same id', async () => {
      const hook = await createHook(t.owner.key);
      await emit('message.received');
      const [first] = await t.inbox.waitFor(1);
      const id = first!.headers['x-service-delivery'] as string;
      await quiescent(t.app);
      const redeliver = await t.app.api.post(`/hooks/${hook.id}/deliveries/${id}/redeliver`, { token: t.owner.key });
      expect(redeliver.status).to.equal(202);
      const [, second] = await t.inbox.waitFor(2);
      expect(second!.headers['x-service-delivery']).to.equal(id);
      assertSigned(second!, hook.secret);
    });

    it('signs with both secrets during a rotation overlap', async () => {
      const hook = await createHook(t.owner.key);
      const rotated = await t.app.api.post(`/hooks/${hook.id}/rotate-secret`, { token: t.owner.key, body: { expiresInSeconds: 3600 } });
      expect(rotated.status).to.equal(200);
      expect(rotated.body.secret).to.not.equal(hook.secret);
      await emit('message.received');
      const [request] = await t.inbox.waitFor(1);
      expect(String(request!.headers['webhook-signature']).split(' ')).to.have.length(2);
      assertSigned(request!, rotated.body.secret);
      // A receiver still holding the previous secret verifies the same request.
      expect(new Webhook(hook.secret).verify(request!.rawBody, request!.headers as Record<string, string>)).to.be.an('object');
    });
  });

  describe('testHook — POST /hooks/{id}/test', () => {
    it('queues one webhook.test delivery to this hook only, and limits pings to one per 30 s', async () => {
      const hook = await createHook(t.owner.key, ['webhook.test']);
      const other = await createHook(t.owner.key, ['webhook.test']);
      const queued = await t.app.api.post(`/hooks/${hook.id}/test`, { token: t.owner.key });
      expect(queued.status).to.equal(202);
      expect(queued.body).to.include({ event: 'webhook.test', status: 'pending', hookId: hook.id });
      const [request] = await t.inbox.waitFor(1);
      assertSigned(request!, hook.secret);
      expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'webhook.test', profileId: t.owner.profileId });
      const again = await t.app.api.post(`/hooks/${hook.id}/test`, { token: t.owner.key });
      expect(again.status).to.equal(429);
      expect(again.body.code).to.equal('hook_test_rate_limited');
      expect(Number(again.headers.get('retry-after'))).to.be.within(1, 30);
      await quiescent(t.app);
      expect(t.inbox.received).to.have.length(1);
      expect(other.id).to.not.equal(hook.id);
    });
  });

  describe('profile scope', () => {
    it('binds a hook made with a restricted key to its profiles, and keeps other keys out with 403', async () => {
      const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
      const firstOnly = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      const secondOnly = await restrictedKey(t.app.api, t.owner, [second.body.id]);
      const scoped = await createHook(firstOnly, ['message.received']);
      const everything = await createHook(t.owner.key, ['message.received']);
      expect(scoped.profileIds).to.deep.equal([t.owner.profileId]);
      expect(everything.profileIds).to.equal(null);

      await emit('message.received', MESSAGE, second.body.id);
      await emit('message.received');
      await t.inbox.waitFor(3);
      await quiescent(t.app);
      const byHook = (await t.app.services
        .db('deliveries')
        .select('hookId')
        .count('id as n')
        .groupBy('hookId')
        .whereIn('hookId', [scoped.id, everything.id])) as Array<{ hookId: string; n: string }>;
      expect(Object.fromEntries(byHook.map((r) => [r.hookId, Number(r.n)]))).to.deep.equal({ [scoped.id]: 1, [everything.id]: 2 });

      const listed = await t.app.api.get('/hooks', { token: secondOnly });
      expect(listed.body.data).to.deep.equal([]);
      for (const response of [
        await t.app.api.get(`/hooks/${scoped.id}`, { token: secondOnly }),
        await t.app.api.patch(`/hooks/${scoped.id}`, { token: secondOnly, body: { active: false } }),
        await t.app.api.get(`/hooks/${scoped.id}/deliveries`, { token: secondOnly }),
        await t.app.api.post(`/hooks/${scoped.id}/test`, { token: secondOnly }),
        await t.app.api.delete(`/hooks/${everything.id}`, { token: firstOnly }),
      ]) {
        expect(response.status).to.equal(403);
        expect(response.body.code).to.equal('profile_out_of_scope');
      }
      expect((await t.app.api.get('/hooks', { token: firstOnly })).body.data.map((h: { id: string }) => h.id)).to.deep.equal([scoped.id]);
      expect((await t.app.api.get(`/hooks/${scoped.id}`, { token: firstOnly })).status).to.equal(200);
    });

    it("answers 404 for another owner's hook", async () => {
      const other = await newOwner(t.app.api);
      const theirs = await createHook(other.key);
      expect((await t.app.api.get(`/hooks/${theirs.id}`, { token: t.owner.key })).status).to.equal(404);
      expect((await t.app.api.delete(`/hooks/${theirs.id}`, { token: t.owner.key })).status).to.equal(404);
    });
  });

  itPagesByKeyset(t, 'listHooks', async (count) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n += 1) ids.unshift((await createHook(t.owner.key)).id);
    return { path: '/hooks', ids };
  });

  itPagesByKeyset(t, 'listHookDeliveries, filtered by event', async (count) => {
    const hook = await createHook(t.owner.key, ['message.received', 'post.published']);
    const made: Array<{ id: string; event: EventName }> = [];
    for (let n = 0; n < count; n += 1) {
      const event = n % 2 ? 'post.published' : 'message.received';
      const { id: eventId } = await emit(event);
      const [delivery] = await until(() => t.app.services.db('deliveries').where({ eventId }), {
        done: (rows) => rows.length === 1,
        what: `the delivery of ${eventId}`,
      });
      made.unshift({ id: delivery.id, event });
    }
    await quiescent(t.app);
    const published = made.filter((item) => item.event === 'post.published').map((item) => item.id);
    return {
      path: `/hooks/${hook.id}/deliveries`,
      ids: made.map((item) => item.id),
      filter: { query: 'event=post.published', ids: published },
    };
  });

  it('updateHook pauses a hook (open deliveries fail) and deleteHook removes it', async () => {
    const hook = await createHook(t.owner.key);
    const paused = await t.app.api.patch(`/hooks/${hook.id}`, { token: t.owner.key, body: { active: false, events: ['post.failed'] } });
    expect(paused.status).to.equal(200);
    expect(paused.body).to.include({ active: false });
    expect(paused.body.events).to.deep.equal(['post.failed']);
    expect((await t.app.api.delete(`/hooks/${hook.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.get(`/hooks/${hook.id}`, { token: t.owner.key })).status).to.equal(404);
  });
});
