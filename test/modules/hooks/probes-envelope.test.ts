import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readBundledContract } from '../../../src/http/contract.js';
import { envelopeOf } from '../../../src/modules/events/emit.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';
import { Receiver } from '../../support/receiver.js';

/** What a receiver that validates deliveries against the contract's `webhooks:` does with a `webhook.test` body. */
function contractErrorsOfTestPing(body: unknown): unknown[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(readBundledContract() as object, 'contract');
  const validate = ajv.getSchema('contract#/webhooks/webhook.test/post/requestBody/content/application~1json/schema')!;
  return validate(body) ? [] : [...(validate.errors ?? [])];
}

describe('outgoing webhooks — the envelope of every delivery has a string profileId', () => {
  let app: TestApp;
  let receiver: Receiver;
  let owner: TestOwner;
  before(async () => {
    receiver = await Receiver.start();
    app = await startTestApp();
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  async function pingOnce(token: string): Promise<{ profileId: unknown }> {
    const hook = await app.api.post('/hooks', { token, body: { url: `${receiver.url}/${token.slice(-8)}`, events: ['post.published'] } });
    expect(hook.status).to.equal(201);
    const before = receiver.received.length;
    expect((await app.api.post(`/hooks/${hook.body.id}/test`, { token })).status).to.equal(202);
    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    const body = JSON.parse(request!.rawBody) as { profileId: unknown };
    expect(contractErrorsOfTestPing(body)).to.deep.equal([]);
    return body;
  }

  it("an owner-wide hook's test ping names the owner's first profile", async () => {
    await app.api.post('/profiles', { token: owner.key, body: { name: 'Later' } });
    expect((await pingOnce(owner.key)).profileId).to.equal(owner.profileId);
  });

  it("a profile-restricted hook's test ping names the hook's profile", async () => {
    const second = (await app.api.post('/profiles', { token: owner.key, body: { name: 'Second' } })).body.id as string;
    expect((await pingOnce(await restrictedKey(app.api, owner, [second]))).profileId).to.equal(second);
  });

  it('an owner without profiles gets an empty string, still a string', async () => {
    const email = `lonely-${Date.now()}@example.com`;
    const session = (await app.api.post('/auth/signup', { body: { email, password: 'a long enough password' } })).body.session
      .token as string;
    const key = (await app.api.post('/api-keys', { token: session, body: { name: 'k' } })).body.key as string;
    expect((await pingOnce(key)).profileId).to.equal('');
  });

  it('an owner-level event (no profile) is enveloped with an empty string', () => {
    const body = JSON.parse(
      envelopeOf({
        id: 'evt_01jd3y6w7q5v8k0n2b4c6e8g1h',
        ownerId: owner.ownerId,
        profileId: null,
        name: 'invoice.status_updated',
        data: {},
        createdAt: new Date(),
        dispatchedAt: null,
      }),
    );
    expect(body).to.deep.equal({ event: 'invoice.status_updated', ownerId: owner.ownerId, profileId: '', data: {} });
  });

  it('a refused private webhook address names the setting that allows it', async () => {
    const response = await app.api.post('/hooks', { token: owner.key, body: { url: 'https://10.0.0.1/in', events: ['post.published'] } });
    expect(response.status).to.equal(422);
    expect(response.body.code).to.equal('url_not_allowed');
    expect(response.body.detail).to.include('WEBHOOK_ALLOWED_CIDRS');
  });
});
