import { expect } from 'chai';
import { emitEvent } from '../../../src/modules/events/emit.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';
import { Webhook } from 'standardwebhooks';
import { assertSigned, hookSettings, publishedData } from './support.js';

describe('outgoing webhooks — /hooks', () => {
  let app: TestApp;
  let receiver: Receiver;
  let owner: TestOwner;
  before(async () => {
    receiver = await Receiver.start();
    app = await startTestApp(hookSettings(receiver.caFile));
  });
  beforeEach(async () => {
    // Earlier tests' hooks may still be retrying; stop them so each test sees only its own deliveries.
    await app.services.db('deliveries').whereIn('status', ['pending', 'retrying']).update({ status: 'failed' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    owner = await newOwner(app.api);
    receiver.received.length = 0;
    receiver.reply = () => ({ status: 200 });
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  async function createHook(token: string, events: string[] = ['message.received'], extra: Record<string, unknown> = {}) {
    const response = await app.api.post('/hooks', { token, body: { url: `${receiver.url}/hook`, events, ...extra } });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    return response.body as { id: string; secret: string; profileIds: string[] | null };
  }

  const message = (_profileId: string) => ({ accountId: 'acc_01jd3y6w7q5v8k0n2b4c6e8g1h', from: '+15551234567', text: 'hi', msgId: 'wamid.1', platform: 'chatapp-cloud' as const });

  describe('createHook — POST /hooks', () => {
    it('returns the secret once; reads never show it', async () => {
      const hook = await createHook(owner.key);
      expect(hook.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const read = await app.api.get(`/hooks/${hook.id}`, { token: owner.key });
      const listed = await app.api.get('/hooks', { token: owner.key });
      expect(read.text + listed.text).to.not.include(hook.secret);
      expect(read.body).to.not.have.property('secret');
      const row = await app.services.db('hooks').where({ id: hook.id }).first();
      expect(JSON.stringify(row)).to.not.include(hook.secret);
    });

    it('refuses a url that is not https with 400', async () => {
      const response = await app.api.post('/hooks', { token: owner.key, body: { url: 'http://example.com/hook', events: ['post.published'] } });
      expect(response.status).to.equal(400);
      expect(response.body.errors[0].path).to.equal('body/url');
    });

    it('refuses event names outside the list', async () => {
      const response = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/x`, events: ['post.exploded'] } });
      expect(response.status).to.equal(400);
    });

    it('refuses private, link-local and encoded addresses with 422 url_not_allowed', async () => {
      for (const url of ['https://10.0.0.1/h', 'https://169.254.169.254/latest', 'https://[::ffff:10.0.0.1]/h', 'https://0x0a000001/h', 'https://100.64.0.1/h', 'https://[fd00::1]/h']) {
        const response = await app.api.post('/hooks', { token: owner.key, body: { url, events: ['post.published'] } });
        expect(response.status, url).to.equal(422);
        expect(response.body.code, url).to.equal('url_not_allowed');
      }
    });

    it('allows 20 hooks per owner and refuses the 21st with hook_limit_reached', async () => {
      await Promise.all(Array.from({ length: 20 }, () => createHook(owner.key)));
      const response = await app.api.post('/hooks', { token: owner.key, body: { url: `${receiver.url}/x`, events: ['post.published'] } });
      expect(response.status).to.equal(422);
      expect(response.body.code).to.equal('hook_limit_reached');
      expect(await app.services.db('hooks').where({ ownerId: owner.ownerId }).count('id as n').first()).to.deep.equal({ n: '20' });
    });
  });

  describe('delivery', () => {
    it('delivers a subscribed event, signed two ways over the raw body, with exactly the envelope', async () => {
      const hook = await createHook(owner.key, ['message.received']);
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      const [request] = await receiver.waitFor(1);
      assertSigned(request!, hook.secret);
      expect(request!.headers['x-service-event']).to.equal('message.received');
      expect(request!.headers['x-service-delivery']).to.match(/^dlv_/).and.equal(request!.headers['webhook-id']);
      expect(request!.headers['content-type']).to.equal('application/json');
      expect(request!.headers['user-agent']).to.equal('Socialgate-Webhooks/1');
      const body = JSON.parse(request!.rawBody);
      expect(Object.keys(body)).to.deep.equal(['event', 'ownerId', 'profileId', 'data']);
      expect(body).to.deep.equal({ event: 'message.received', ownerId: owner.ownerId, profileId: owner.profileId, data: message(owner.profileId) });
    });

    it('sends nothing for events the hook does not name, and nothing for a rolled-back change', async () => {
      await createHook(owner.key, ['post.published']);
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      await app.services.db.transaction(async (trx) => {
        await emitEvent(trx, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'post.published', data: publishedData('post_rolled_back') });
        await trx.rollback();
      }).catch(() => {});
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'post.published', data: publishedData('post_marker') });
      const [request] = await receiver.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).to.have.length(1);
      expect(JSON.parse(request!.rawBody).data).to.deep.equal(publishedData('post_marker'));
    });

    it('retries a failed attempt and records every attempt', async () => {
      const hook = await createHook(owner.key);
      let calls = 0;
      receiver.reply = () => (calls++ === 0 ? { status: 500, body: 'boom' } : { status: 204 });
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      const [first, second] = await receiver.waitFor(2);
      expect(second!.headers['x-service-delivery']).to.equal(first!.headers['x-service-delivery']);
      expect(second!.rawBody).to.equal(first!.rawBody);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const deliveries = await app.api.get(`/hooks/${hook.id}/deliveries`, { token: owner.key });
      const [delivery] = deliveries.body.data;
      expect(delivery).to.include({ status: 'succeeded', attemptCount: 2, nextAttemptAt: null });
      expect(delivery.attempts.map((a: { responseStatus: number }) => a.responseStatus)).to.deep.equal([500, 204]);
      expect(delivery.attempts[0]).to.include({ errorClass: 'http_status', responseSnippet: 'boom' });
    });

    it('does not follow redirects: a 3xx is a failed attempt', async () => {
      const hook = await createHook(owner.key);
      receiver.reply = (request) => (request.headers['x-service-event'] ? { status: 302, headers: { Location: `${receiver.url}/elsewhere` } } : { status: 200 });
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      await receiver.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received.every((r) => r.headers['x-service-event'] === 'message.received')).to.equal(true);
      const deliveries = await app.api.get(`/hooks/${hook.id}/deliveries`, { token: owner.key });
      expect(deliveries.body.data[0].attempts[0]).to.include({ responseStatus: 302, errorClass: 'redirect' });
    });

    it('disables the hook at once on 410 Gone', async () => {
      const hook = await createHook(owner.key);
      receiver.reply = () => ({ status: 410 });
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      await receiver.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const read = await app.api.get(`/hooks/${hook.id}`, { token: owner.key });
      expect(read.body).to.include({ active: false, disabledReason: 'endpoint_gone' });
      const deliveries = await app.api.get(`/hooks/${hook.id}/deliveries`, { token: owner.key });
      expect(deliveries.body.data[0]).to.include({ status: 'failed', attemptCount: 1 });
    });

    it('redelivers a delivery with the same id', async () => {
      const hook = await createHook(owner.key);
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      const [first] = await receiver.waitFor(1);
      const id = first!.headers['x-service-delivery'] as string;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const redeliver = await app.api.post(`/hooks/${hook.id}/deliveries/${id}/redeliver`, { token: owner.key });
      expect(redeliver.status).to.equal(202);
      const [, second] = await receiver.waitFor(2);
      expect(second!.headers['x-service-delivery']).to.equal(id);
      assertSigned(second!, hook.secret);
    });

    it('signs with both secrets during a rotation overlap', async () => {
      const hook = await createHook(owner.key);
      const rotated = await app.api.post(`/hooks/${hook.id}/rotate-secret`, { token: owner.key, body: { expiresInSeconds: 3600 } });
      expect(rotated.status).to.equal(200);
      expect(rotated.body.secret).to.not.equal(hook.secret);
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      const [request] = await receiver.waitFor(1);
      expect(String(request!.headers['webhook-signature']).split(' ')).to.have.length(2);
      assertSigned(request!, rotated.body.secret);
      // A receiver still holding the previous secret verifies the same request.
      expect(new Webhook(hook.secret).verify(request!.rawBody, request!.headers as Record<string, string>)).to.be.an('object');
    });
  });

  describe('testHook — POST /hooks/{id}/test', () => {
    it('queues one webhook.test delivery to this hook only, and limits pings to one per 30 s', async () => {
      const hook = await createHook(owner.key, ['webhook.test']);
      const other = await createHook(owner.key, ['webhook.test']);
      const queued = await app.api.post(`/hooks/${hook.id}/test`, { token: owner.key });
      expect(queued.status).to.equal(202);
      expect(queued.body).to.include({ event: 'webhook.test', status: 'pending', hookId: hook.id });
      const [request] = await receiver.waitFor(1);
      assertSigned(request!, hook.secret);
      expect(JSON.parse(request!.rawBody)).to.deep.include({ event: 'webhook.test', profileId: owner.profileId });
      const again = await app.api.post(`/hooks/${hook.id}/test`, { token: owner.key });
      expect(again.status).to.equal(429);
      expect(again.body.code).to.equal('hook_test_rate_limited');
      expect(Number(again.headers.get('retry-after'))).to.be.within(1, 30);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).to.have.length(1);
      expect(other.id).to.not.equal(hook.id);
    });
  });

  describe('profile scope', () => {
    it('binds a hook made with a restricted key to its profiles, and keeps other keys out with 403', async () => {
      const second = await app.api.post('/profiles', { token: owner.key, body: { name: 'second' } });
      const firstOnly = await restrictedKey(app.api, owner, [owner.profileId]);
      const secondOnly = await restrictedKey(app.api, owner, [second.body.id]);
      const scoped = await createHook(firstOnly, ['message.received']);
      const everything = await createHook(owner.key, ['message.received']);
      expect(scoped.profileIds).to.deep.equal([owner.profileId]);
      expect(everything.profileIds).to.equal(null);

      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: second.body.id, name: 'message.received', data: message(second.body.id) });
      await emitEvent(app.services.db, { ownerId: owner.ownerId, profileId: owner.profileId, name: 'message.received', data: message(owner.profileId) });
      await receiver.waitFor(3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const byHook = await app.services.db('deliveries').select('hookId').count('id as n').groupBy('hookId').whereIn('hookId', [scoped.id, everything.id]) as Array<{ hookId: string; n: string }>;
      expect(Object.fromEntries(byHook.map((r) => [r.hookId, Number(r.n)]))).to.deep.equal({ [scoped.id]: 1, [everything.id]: 2 });

      const listed = await app.api.get('/hooks', { token: secondOnly });
      expect(listed.body.data).to.deep.equal([]);
      for (const response of [
        await app.api.get(`/hooks/${scoped.id}`, { token: secondOnly }),
        await app.api.patch(`/hooks/${scoped.id}`, { token: secondOnly, body: { active: false } }),
        await app.api.get(`/hooks/${scoped.id}/deliveries`, { token: secondOnly }),
        await app.api.post(`/hooks/${scoped.id}/test`, { token: secondOnly }),
        await app.api.delete(`/hooks/${everything.id}`, { token: firstOnly }),
      ]) {
        expect(response.status).to.equal(403);
        expect(response.body.code).to.equal('profile_out_of_scope');
      }
      expect((await app.api.get('/hooks', { token: firstOnly })).body.data.map((h: { id: string }) => h.id)).to.deep.equal([scoped.id]);
      expect((await app.api.get(`/hooks/${scoped.id}`, { token: firstOnly })).status).to.equal(200);
    });

    it("answers 404 for another owner's hook", async () => {
      const other = await newOwner(app.api);
      const theirs = await createHook(other.key);
      expect((await app.api.get(`/hooks/${theirs.id}`, { token: owner.key })).status).to.equal(404);
      expect((await app.api.delete(`/hooks/${theirs.id}`, { token: owner.key })).status).to.equal(404);
    });
  });

  it('updateHook pauses a hook (open deliveries fail) and deleteHook removes it', async () => {
    const hook = await createHook(owner.key);
    const paused = await app.api.patch(`/hooks/${hook.id}`, { token: owner.key, body: { active: false, events: ['post.failed'] } });
    expect(paused.status).to.equal(200);
    expect(paused.body).to.include({ active: false });
    expect(paused.body.events).to.deep.equal(['post.failed']);
    expect((await app.api.delete(`/hooks/${hook.id}`, { token: owner.key })).status).to.equal(204);
    expect((await app.api.get(`/hooks/${hook.id}`, { token: owner.key })).status).to.equal(404);
  });
});
