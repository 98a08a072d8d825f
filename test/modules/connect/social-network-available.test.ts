import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { consent, returnToService } from '../../support/sandbox/oauth.js';
import { pendingConnection } from '../../support/sandbox/social-network.js';

describeApi('social_network — what a grant can connect, listed from the platform', (t) => {
  const { socialNetwork } = t.sandbox;
  const available = (what: string, pendingConnectionId: string) =>
    `/profiles/${t.owner.profileId}/connect/social_network/${what}?pendingConnectionId=${pendingConnectionId}`;

  itPagesThroughPlatform(t, 'listAvailableSocialNetworkPages', async (count) => {
    const person = await socialNetwork.newPerson({ pages: count, adAccounts: 0 });
    return {
      path: available('available', await pendingConnection(t.app, t.owner)),
      ids: person.pageIds,
      idOf: (page) => page.platformPageId,
    };
  });

  itPagesThroughPlatform(t, 'listAvailableSocialNetworkAdAccounts', async (count) => {
    const person = await socialNetwork.newPerson({ pages: 0, adAccounts: count });
    return {
      path: available('adaccounts/available', await pendingConnection(t.app, t.owner)),
      ids: person.adAccountIds,
      idOf: (adAccount) => adAccount.platformAdAccountId,
    };
  });

  it('without a redirectUrl, shows the pending connection on the callback page; the list without its id reads the newest', async () => {
    await socialNetwork.newPerson({ pages: 1, adAccounts: 0 });
    const started = await t.app.api.get(`/connect/social_network?profileId=${t.owner.profileId}`, { token: t.owner.key });
    const page = await returnToService(t.app, await consent(started.body.authorizationUrl, 'approve'));
    expect(page.status).to.equal(200);
    const id = /<code id="pendingConnectionId">(pconn_[0-9a-z]{26})<\/code>/.exec(page.text)?.[1];
    expect(id, page.text).to.be.a('string');
    expect(page.text).to.include(`/profiles/${t.owner.profileId}/connect/social_network/available?pendingConnectionId=${id}`);
    const listed = await t.app.api.get(`/profiles/${t.owner.profileId}/connect/social_network/available`, { token: t.owner.key });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.pendingConnectionId).to.equal(id);
    expect(listed.body.data).to.have.length(1);
  });
});
