import { expect } from 'chai';
import { describeApi } from '../support/harness.js';

const PROFILE = 'prof_01jd3y6w7q5v8k0n2b4c6e8g1h';
const ACCOUNT = 'acc_01jd3z8x9y0a1b2c3d4e5f6g7h';
const PROGRAM = 'wprog_01jd3y6w7q5v8k0n2b4c6e8g1h';
const PEM_CERT = `-----BEGIN CERTIFICATE-----\n${'A'.repeat(64)}\n-----END CERTIFICATE-----\n`;

describeApi('400 validation_failed — one error per mistake, naming the member, what was wrong and what is allowed', (t) => {
  const refused = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const response = await t.app.api.request(method, path, { token: t.owner.key, body });
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    return response.body.errors as Array<{ path: string; code: string; message: string }>;
  };
  const automation = (action: unknown) => ({
    profileId: PROFILE,
    name: 'Price replies',
    accountIds: [ACCOUNT],
    trigger: { type: 'comment_received' },
    actions: [action],
  });

  it('createAutomation — an action of an unknown type is one error on its type, listing the types and the one probably meant', async () => {
    expect(await refused('POST', '/automations', automation({ type: 'reply_coment', text: 'Thanks!' }))).to.deep.equal([
      {
        path: 'body/actions/0/type',
        code: 'enum',
        message:
          'is "reply_coment", not one of the allowed values: reply_message, reply_comment, send_private_reply, hide_comment, add_tag; did you mean "reply_comment"?',
      },
    ]);
  });

  it('createAutomation — a mistake inside an action of a known type is reported within that type only', async () => {
    expect(await refused('POST', '/automations', automation({ type: 'add_tag', text: 'x' }))).to.deep.equal([
      { path: 'body/actions/0/tag', code: 'required', message: 'is required' },
      { path: 'body/actions/0/text', code: 'additionalProperties', message: 'unknown member text' },
    ]);
  });

  it('createPost — publishNow with scheduledAt is one error saying to give only one; neither is one error listing the four', async () => {
    const post = { accountIds: [ACCOUNT], text: 'Hello' };
    expect(await refused('POST', '/posts', { ...post, publishNow: true, scheduledAt: '2030-01-01T08:00:00Z' })).to.deep.equal([
      {
        path: 'body',
        code: 'oneOf',
        message: 'takes only one of publishNow, scheduledAt, useQueue, draft, not publishNow and scheduledAt together',
      },
    ]);
    expect(await refused('POST', '/posts', post)).to.deep.equal([
      { path: 'body', code: 'oneOf', message: 'needs exactly one of: publishNow, scheduledAt, useQueue, draft' },
    ]);
  });

  it('createPost — a post with neither text nor media names text', async () => {
    expect(await refused('POST', '/posts', { accountIds: [ACCOUNT], publishNow: true })).to.deep.equal([
      { path: 'body/text', code: 'required', message: 'is required without mediaIds: a post has text, media or both' },
    ]);
  });

  it('createPost — an unknown member says so, with the member probably meant', async () => {
    expect(await refused('POST', '/posts', { accountIds: [ACCOUNT], text: 'Hi', publishNow: true, mediaId: [] })).to.deep.equal([
      { path: 'body/mediaId', code: 'additionalProperties', message: 'unknown member mediaId; did you mean "mediaIds"?' },
    ]);
  });

  it('uploadWalletVendorCertificate — a PEM certificate with a bad key is about the key, not the p12 file', async () => {
    const errors = await refused('POST', `/wallet/programs/${PROGRAM}/vendor/certificate`, {
      format: 'pem',
      certificatePem: PEM_CERT,
      privateKeyPem: 'not a key '.repeat(8),
    });
    expect(errors.map((error) => `${error.path} ${error.code}`)).to.deep.equal(['body/privateKeyPem pattern']);
  });

  it('a name of only spaces is refused on profiles, hooks, automations and wallet programs, saying what to fix', async () => {
    const blank = { code: 'pattern', message: 'is only spaces; write something a person can read' };
    expect(await refused('POST', '/profiles', { name: '   ' })).to.deep.equal([{ path: 'body/name', ...blank }]);
    expect(await refused('POST', '/automations', { ...automation({ type: 'add_tag', tag: 'price' }), name: ' \t ' })).to.deep.equal([
      { path: 'body/name', ...blank },
    ]);
    const hook = { url: 'https://hooks.example.com/h', events: ['post.published'], description: '  ' };
    expect(await refused('POST', '/hooks', hook)).to.deep.equal([{ path: 'body/description', ...blank }]);
    const program = { profileId: PROFILE, name: ' ', passStyle: 'storeCard', organizationName: 'Acme Coffee', description: 'Card' };
    expect(await refused('POST', '/wallet/programs', program)).to.deep.equal([{ path: 'body/name', ...blank }]);
  });

  it('createHook — an unknown event lists the events and the one probably meant', async () => {
    const errors = await refused('POST', '/hooks', { url: 'https://hooks.example.com/h', events: ['message.recieved'] });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ path: 'body/events/0', code: 'enum' });
    expect(errors[0]!.message).to.match(
      /^is "message\.recieved", not one of the allowed values: .*message\.received.*; did you mean "message\.received"\?$/,
    );
  });
});

describeApi('refusals that say what is wrong with the request itself', (t) => {
  it('a wrong Authorization scheme is 401 saying the scheme is wrong', async () => {
    const response = await t.app.api.get('/profiles', { headers: { Authorization: `Basic ${t.owner.key}` } });
    expect(response.status).to.equal(401);
    expect(response.body).to.include({
      code: 'invalid_token',
      detail: 'The Authorization scheme is "Basic"; send "Bearer <token>" with a session token or an API key.',
    });
  });

  it('a JSON body of null is valid JSON, refused for what the contract wants of it', async () => {
    const response = await t.app.api.post('/profiles', {
      token: t.owner.key,
      rawBody: 'null',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).to.equal(400);
    expect(response.body).to.include({ code: 'validation_failed' });
    expect(response.body.errors).to.deep.equal([{ path: 'body', code: 'type', message: 'must be object' }]);
  });
});
