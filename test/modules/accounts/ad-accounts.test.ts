import { expect } from 'chai';
import { saveConnectedAdAccount } from '../../../src/modules/accounts/ad-accounts.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';

describe('ad accounts — /adaccounts', () => {
  let app: TestApp;
  let owner: TestOwner;
  before(async () => { app = await startTestApp(); });
  beforeEach(async () => { owner = await newOwner(app.api); });
  after(async () => { await app.close(); });

  /** As a connection flow saves it (the OAuth callback of an ads platform). */
  const connect = (profileId: string, platformAdAccountId = 'act_1001') => saveConnectedAdAccount(app.services,
    { kind: 'session', ownerId: owner.ownerId, sessionId: 'test' }, profileId, 'social_network', {
      platformAdAccountId, name: 'Acme Ads', currency: 'EUR', timezone: 'Europe/Berlin', platformStatus: 'active',
      tokenExpiresAt: null, credentials: { accessToken: 'token' },
    });

  it('listAdAccounts lists them; deleteAdAccount disconnects once with account.disconnected and forgets the tokens', async () => {
    const row = await connect(owner.profileId);
    const listed = await app.api.get('/adaccounts', { token: owner.key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).to.deep.equal([row.id]);
    expect(listed.body.data[0]).to.include({ platformAdAccountId: 'act_1001', currency: 'EUR', status: 'connected' });
    expect((await app.api.delete(`/adaccounts/${row.id}`, { token: owner.key })).status).to.equal(204);
    expect((await app.api.delete(`/adaccounts/${row.id}`, { token: owner.key })).status).to.equal(204);
    const events = await app.services.db('events').where({ ownerId: owner.ownerId, name: 'account.disconnected' });
    expect(events).to.have.length(1);
    expect(events[0].data).to.include({ accountId: row.id, accountType: 'ad_account' });
    expect((await app.services.db('adAccounts').where({ id: row.id }).first()).credentialsCiphertext).to.equal(null);
    expect((await app.api.get('/adaccounts', { token: owner.key })).body.data).to.deep.equal([]);
  });

  it('keeps a restricted key to its profiles and other owners out', async () => {
    const second = await app.api.post('/profiles', { token: owner.key, body: { name: 'second' } });
    const row = await connect(second.body.id, 'act_2002');
    const key = await restrictedKey(app.api, owner, [owner.profileId]);
    expect((await app.api.get('/adaccounts', { token: key })).body.data).to.deep.equal([]);
    expect((await app.api.delete(`/adaccounts/${row.id}`, { token: key })).status).to.equal(403);
    const other = await newOwner(app.api);
    expect((await app.api.delete(`/adaccounts/${row.id}`, { token: other.key })).status).to.equal(404);
  });
});
