import { expect } from 'chai';
import { saveConnectedAdAccount } from '../../../src/modules/accounts/ad-accounts.js';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner, restrictedKey } from '../../support/owners.js';

describeApi('ad accounts — /adaccounts', (t) => {
  /** As a connection flow saves it (the OAuth callback of an ads platform). */
  const connect = (profileId: string, platformAdAccountId = 'act_1001') =>
    saveConnectedAdAccount(t.app.services, { kind: 'session', ownerId: t.owner.ownerId, sessionId: 'test' }, profileId, 'social_network', {
      platformAdAccountId,
      name: 'Acme Ads',
      currency: 'EUR',
      timezone: 'Europe/Berlin',
      platformStatus: 'active',
      tokenExpiresAt: null,
      scopes: ['ads_management'],
      credentials: { accessToken: 'token' },
    });

  it('listAdAccounts lists them; deleteAdAccount disconnects once with account.disconnected and forgets the tokens', async () => {
    const row = await connect(t.owner.profileId);
    const listed = await t.app.api.get('/adaccounts', { token: t.owner.key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).to.deep.equal([row.id]);
    expect(listed.body.data[0]).to.include({ platformAdAccountId: 'act_1001', currency: 'EUR', status: 'connected' });
    expect((await t.app.api.delete(`/adaccounts/${row.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/adaccounts/${row.id}`, { token: t.owner.key })).status).to.equal(204);
    const events = await t.app.services.db('events').where({ ownerId: t.owner.ownerId, name: 'account.disconnected' });
    expect(events).to.have.length(1);
    expect(events[0].data).to.include({ accountId: row.id, accountType: 'ad_account' });
    expect((await t.app.services.db('adAccounts').where({ id: row.id }).first()).credentialsCiphertext).to.equal(null);
    expect((await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  itPagesByKeyset(t, 'listAdAccounts, filtered by profileId', async (count) => {
    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const made: Array<{ id: string; profileId: string }> = [];
    for (let n = 0; n < count; n += 1) {
      const profileId = n % 2 ? second.body.id : t.owner.profileId;
      made.unshift({ id: (await connect(profileId, `act_${3000 + n}`)).id, profileId });
    }
    const inSecond = made.filter((item) => item.profileId === second.body.id).map((item) => item.id);
    return { path: '/adaccounts', ids: made.map((item) => item.id), filter: { query: `profileId=${second.body.id}`, ids: inSecond } };
  });

  it('keeps a restricted key to its profiles and other owners out', async () => {
    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const row = await connect(second.body.id, 'act_2002');
    const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
    expect((await t.app.api.get('/adaccounts', { token: key })).body.data).to.deep.equal([]);
    expect((await t.app.api.delete(`/adaccounts/${row.id}`, { token: key })).status).to.equal(403);
    const other = await newOwner(t.app.api);
    expect((await t.app.api.delete(`/adaccounts/${row.id}`, { token: other.key })).status).to.equal(404);
  });
});
