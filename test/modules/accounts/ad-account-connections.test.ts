import { expect } from 'chai';
import { idOf } from '../../../src/lib/ids.js';
import { AccountNotConnectedError, PermissionMissingError } from '../../../src/modules/accounts/errors.js';
import { withConnectedAccount } from '../../../src/modules/accounts/platform-call.js';
import { checkPlatformSides } from '../../../src/modules/accounts/platform-check.js';
import { refreshExpiringTokens } from '../../../src/modules/accounts/refresh.js';
import type { Principal } from '../../../src/modules/auth/principal.js';
import { describeApi } from '../../support/harness.js';
import { consent, returnToService, startConnection } from '../../support/sandbox/oauth.js';
import { connectAdAccounts, pendingConnection } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';

const DAY_MS = 24 * 3600 * 1000;

describeApi('ad accounts — connections like any other: the one seam, the platform check and refresh', (t) => {
  const { socialNetwork, shortVideoAds } = t.sandbox;
  const owner = (): Principal => ({ kind: 'session', ownerId: t.owner.ownerId, sessionId: 'sess_test' });

  /** A new person's ad account on the social network, connected to the owner's profile by the whole dance. */
  async function socialNetworkAdAccount(): Promise<string> {
    const pat = await socialNetwork.newPerson({ pages: 0, adAccounts: 1 });
    const connected = await connectAdAccounts(t.app, t.owner, await pendingConnection(t.app, t.owner), pat.adAccountIds);
    expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
    return connected.body.data[0].id;
  }

  /** The ad account as GET /adaccounts shows it. */
  async function adAccount(id: string) {
    return (await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data.find((row: { id: string }) => row.id === id);
  }

  const accessTokenOf = async (id: string) => {
    const row = await t.app.services.db('adAccounts').where({ id }).first();
    return (JSON.parse(t.app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string }).accessToken;
  };

  const hookFor = (events: string[]) => t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events } });

  it('a call through the seam by adAccountId: scope, grant and outcome as for an account; a revoked token turns it needs_reconnection once', async () => {
    const id = await socialNetworkAdAccount();
    const target = { adAccountId: idOf('adacc', id) };
    const read = await withConnectedAccount(t.app.services, owner(), target, 'ads', (adapter, account) => adapter.ads.adAccount(account), {
      scopes: ['ads_management'],
    });
    expect(read).to.include({ platformStatus: 'active' });
    const lacking = await withConnectedAccount(t.app.services, owner(), target, 'ads', async () => 'called', {
      scopes: ['ads_management', 'whatsapp_business_management'],
    }).catch((error: unknown) => error);
    expect(lacking).to.be.instanceOf(PermissionMissingError);
    expect((lacking as PermissionMissingError).detail).to.include('The ad account was connected without whatsapp_business_management');

    await hookFor(['account.needs_reconnection']);
    await socialNetwork.revokeToken(await accessTokenOf(id));
    const refused = await withConnectedAccount(t.app.services, owner(), target, 'ads', (adapter, account) =>
      adapter.ads.adAccount(account),
    ).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(AccountNotConnectedError);
    expect(await adAccount(id)).to.include({ status: 'needs_reconnection', statusReason: 'token_revoked' });
    await checkPlatformSides(t.app.services);
    const again = await withConnectedAccount(t.app.services, owner(), target, 'ads', async () => 'called').catch((error: unknown) => error);
    expect((again as AccountNotConnectedError).detail).to.equal('The ad account is needs reconnection; connect it again.');

    await t.inbox.waitFor(1);
    await quiescent(t.app);
    expect(t.inbox.events().map((e) => [e.event, e.data.accountId, e.data.accountType, e.data.statusReason])).to.deep.equal([
      ['account.needs_reconnection', id, 'ad_account', 'token_revoked'],
    ]);
  });

  it('short_video_ads: the platform check finds an advertiser whose token was revoked without a webhook; it needs reconnection, announced once', async () => {
    await hookFor(['account.needs_reconnection']);
    const advertiser = await shortVideoAds.newAdvertiser({ name: 'Revoked Shop', status: 'STATUS_DISABLE' });
    const back = await returnToService(
      t.app,
      await consent(await startConnection(t.app, t.owner, 'short_video_ads'), 'approve', { advertiser_ids: advertiser.advertiser_id }),
    );
    const id = new URL(back.headers.get('location')!).searchParams.get('adAccountIds')!;
    const token = await accessTokenOf(id);
    const listed = await t.app.services.platforms.get('short_video_ads')!.ads!.adAccounts(token, 10);
    expect(listed.items.map((item) => item.id)).to.deep.equal([advertiser.advertiser_id]);

    await checkPlatformSides(t.app.services);
    expect(await adAccount(id)).to.include({ status: 'connected', platformStatus: 'disabled' });

    await shortVideoAds.revokeToken([advertiser.advertiser_id]);
    await checkPlatformSides(t.app.services);
    await checkPlatformSides(t.app.services);
    expect(await adAccount(id)).to.include({ status: 'needs_reconnection', statusReason: 'token_revoked' });
    await t.inbox.waitFor(1);
    await quiescent(t.app);
    expect(t.inbox.events().map((e) => [e.event, e.data.accountId, e.data.platform, e.data.accountType])).to.deep.equal([
      ['account.needs_reconnection', id, 'short_video_ads', 'ad_account'],
    ]);
  });

  it("social_network: an ad account's user token near its expiry is exchanged for a new one of about 60 days, and keeps working", async () => {
    const id = await socialNetworkAdAccount();
    const before = await accessTokenOf(id);
    await t.app.services
      .db('adAccounts')
      .where({ id })
      .update({ tokenExpiresAt: new Date(Date.now() + 2 * DAY_MS) });
    expect(Date.parse((await adAccount(id)).tokenExpiresAt) - Date.now()).to.be.below(3 * DAY_MS);

    expect(await refreshExpiringTokens(t.app.services)).to.equal(1);
    const refreshed = await adAccount(id);
    expect(refreshed).to.include({ status: 'connected' });
    expect(Date.parse(refreshed.tokenExpiresAt) - Date.now()).to.be.above(59 * DAY_MS);
    expect(await accessTokenOf(id)).to.not.equal(before);
    expect(await refreshExpiringTokens(t.app.services)).to.equal(0);

    await socialNetwork.revokeToken(before);
    await checkPlatformSides(t.app.services);
    expect(await adAccount(id)).to.include({ status: 'connected' });
  });
});
