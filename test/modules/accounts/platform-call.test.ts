import { expect } from 'chai';
import type { Principal } from '../../../src/modules/auth/principal.js';
import { CapabilityUnsupportedError, PermissionMissingError } from '../../../src/modules/accounts/errors.js';
import { withConnectedAccount } from '../../../src/modules/accounts/platform-call.js';
import { idOf } from '../../../src/lib/ids.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectPages, pendingConnection, SocialNetworkPeople } from '../../support/sandbox/social-network.js';

describe('acting on an account through its platform — one way for every area', () => {
  let app: TestApp;
  let owner: TestOwner;
  let pageId: string;

  before(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
    const pat = await new SocialNetworkPeople(() => app).newPerson({ pages: 1 });
    const connected = await connectPages(app, owner, await pendingConnection(app, owner), pat.pageIds);
    expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
    pageId = connected.body.data[0].id;
  });
  after(async () => {
    await app.close();
  });

  const sessionOf = (who: TestOwner): Principal => ({ kind: 'session', ownerId: who.ownerId, sessionId: 'sess_test' });
  const about = (id = pageId, token = owner.key) => app.api.get(`/accounts/${id}/about`, { token });
  const accountStatus = async (id = pageId) => (await app.api.get(`/accounts/${id}`, { token: owner.key })).body;

  it('a platform that throttles the account without saying for how long: 429 platform_rate_limited, a minute said to be a guess, and no reconnection', async () => {
    await new SocialNetworkPeople(() => app).failNextCall({ code: 4, message: '(#4) Application request limit reached' });
    const throttled = await about();
    expect([throttled.status, throttled.body.code]).to.deep.equal([429, 'platform_rate_limited']);
    expect(throttled.headers.get('retry-after')).to.equal('60');
    expect(throttled.body.detail).to.include('(#4) Application request limit reached').and.include('a guess');
    expect(await accountStatus()).to.include({ status: 'connected' });
    expect((await about()).status).to.equal(200);
  });

  it('a permission the platform refuses: 422 permission_missing asking for a reconnection; after that the account is not connected (409)', async () => {
    await new SocialNetworkPeople(() => app).failNextCall({
      code: 200,
      message: '(#200) Requires pages_read_engagement permission to manage the object',
    });
    const refused = await about();
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ code: 'permission_missing', action: 'reconnect_account' });
    expect(refused.body.detail).to.include('pages_read_engagement');
    expect(refused.body).to.not.have.property('scope');
    expect(await accountStatus()).to.include({ status: 'needs_reconnection', statusReason: 'permission_missing' });
    const again = await about();
    expect([again.status, again.body.code]).to.deep.equal([409, 'account_not_connected']);
  });

  it('a platform scope the account was connected without: permission_missing naming it, and the platform is not called', async () => {
    const calls: string[] = [];
    const acting = withConnectedAccount(
      app.services,
      sessionOf(owner),
      { accountId: idOf('acc', pageId) },
      'publisher',
      async () => {
        calls.push('called');
      },
      { scopes: ['pages_manage_engagement', 'pages_manage_cta'] },
    );
    const error = await acting.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(PermissionMissingError);
    expect((error as PermissionMissingError).extra.members).to.deep.equal({
      action: 'reconnect_account',
      scope: 'pages_manage_cta',
    });
    expect(calls).to.deep.equal([]);

    await withConnectedAccount(
      app.services,
      sessionOf(owner),
      { accountId: idOf('acc', pageId) },
      'publisher',
      async () => {
        calls.push('called');
      },
      { scopes: ['pages_manage_engagement', 'pages_manage_posts'] },
    );
    expect(calls).to.deep.equal(['called']);
  });

  it("a capability the account's platform lacks: 422 naming the platform and what it lacks, whatever state the account is in", async () => {
    const bot = await connectBot(app, owner);
    await app.services.db('accounts').where({ id: bot.accountId }).update({ status: 'needs_reconnection' });
    const error = await withConnectedAccount(
      app.services,
      sessionOf(owner),
      { accountId: idOf('acc', bot.accountId) },
      'publisher',
      async (adapter, account) => adapter.publisher.history(account, { limit: 1 }),
      { part: 'history' },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(CapabilityUnsupportedError);
    expect((error as CapabilityUnsupportedError).detail).to.equal(
      'botchat accounts cannot do this: the platform offers apps no publisher history.',
    );
  });

  it("another owner's account is not found (404); an account outside the key's profiles is refused (403)", async () => {
    const stranger = await newOwner(app.api);
    expect((await about(pageId, stranger.key)).status).to.equal(404);
    const other = await app.api.post('/profiles', { token: owner.session, body: { name: 'Other' } });
    const elsewhere = await restrictedKey(app.api, owner, [other.body.id]);
    const refused = await about(pageId, elsewhere);
    expect([refused.status, refused.body.code]).to.deep.equal([403, 'profile_out_of_scope']);
  });
});
