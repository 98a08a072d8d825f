import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
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
});
