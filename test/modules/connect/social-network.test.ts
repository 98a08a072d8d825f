import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { DEMO_AD_ACCOUNTS, DEMO_PAGES, DEMO_USER, SANDBOX_APP } from '../../../src/sandbox/social-network/demo.js';
import { storedAccount } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { newOwner } from '../../support/owners.js';
import { connectNewAdAccount, MarketingPeople } from '../../support/sandbox/marketing.js';
import { authorise, DONE } from '../../support/sandbox/oauth.js';
import { connectAdAccounts, connectPages, pendingConnection } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';
import { assertSigned } from '../../support/webhooks.js';

const [ACME, KREUZBERG] = DEMO_PAGES.map((page) => page.id) as [string, string];
const ADS = DEMO_AD_ACCOUNTS[0]!.id;

describeApi('social_network — pages and ad accounts by OAuth, chosen after consent', (t) => {
  const { socialNetwork } = t.sandbox;
  beforeEach(() => socialNetwork.signIn(DEMO_USER.id));

  const events = () => t.inbox.events();

  it('runs the whole dance: dialog, long-lived token, pending selection, pages and ad accounts listed and connected', async () => {
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['account.connected'] } });
    const started = await t.app.api.get(`/connect/social_network?profileId=${t.owner.profileId}`, { token: t.owner.key });
    const dialog = new URL(started.body.authorizationUrl);
    expect(dialog.pathname).to.match(/\/v25\.0\/dialog\/oauth$/);
    expect(dialog.searchParams.get('scope')!.split(',')).to.include.members(['pages_show_list', 'pages_messaging', 'ads_management']);
    expect(dialog.searchParams.get('redirect_uri')).to.equal(`${t.app.services.config.publicUrl}/connect/social_network/callback`);

    const outcome = await authorise(t.app, t.owner, 'social_network');
    expect(`${outcome.origin}${outcome.pathname}`).to.equal(DONE);
    expect(outcome.searchParams.get('status')).to.equal('pending_selection');
    const pendingConnectionId = outcome.searchParams.get('pendingConnectionId')!;
    expect(pendingConnectionId).to.match(/^pconn_[0-9a-z]{26}$/);
    expect(outcome.searchParams.has('accountIds')).to.equal(false);
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data).to.deep.equal([]);
    const stored = await t.app.services.db('pendingConnections').where({ id: pendingConnectionId }).first();
    expect(stored.credentialsCiphertext).to.not.match(/EAASandbox/);
    expect(stored.expiresAt.getTime() - Date.now()).to.be.within(59 * 60_000, 60 * 60_000);

    const available = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/available?pendingConnectionId=${pendingConnectionId}`,
      { token: t.owner.key },
    );
    expect(available.status).to.equal(200);
    expect(available.body).to.include({ pendingConnectionId, nextCursor: null });
    expect(available.body.data.map((p: { platformPageId: string }) => p.platformPageId)).to.deep.equal([ACME, KREUZBERG]);
    expect(available.body.data[0]).to.deep.include({ name: 'Acme Coffee', category: 'Coffee shop', connected: false, accountId: null });
    expect(available.body.data[0].tasks).to.include('CREATE_CONTENT');
    const firstPage = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/available?pendingConnectionId=${pendingConnectionId}&limit=1`,
      { token: t.owner.key },
    );
    const second = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/available?pendingConnectionId=${pendingConnectionId}&limit=1&cursor=${firstPage.body.nextCursor}`,
      { token: t.owner.key },
    );
    expect(second.body.data.map((p: { platformPageId: string }) => p.platformPageId)).to.deep.equal([KREUZBERG]);

    const pages = await connectPages(t.app, t.owner, pendingConnectionId, [KREUZBERG, ACME]);
    expect(pages.status, JSON.stringify(pages.body)).to.equal(201);
    expect(pages.body.data.map((a: { platformAccountId: string }) => a.platformAccountId)).to.deep.equal([KREUZBERG, ACME]);
    expect(pages.body.data[1]).to.include({
      platform: 'social_network',
      kind: 'page',
      name: 'Acme Coffee',
      username: 'acmecoffee',
      status: 'connected',
      tokenExpiresAt: null,
    });
    const row = await t.app.services.db('accounts').where({ id: pages.body.data[1].id }).first();
    expect(row.credentialsCiphertext).to.not.match(/EAASandbox/);
    const again = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/available?pendingConnectionId=${pendingConnectionId}`,
      { token: t.owner.key },
    );
    expect(again.body.data[0]).to.include({ connected: true, accountId: pages.body.data[1].id });

    const ads = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/adaccounts/available?pendingConnectionId=${pendingConnectionId}`,
      { token: t.owner.key },
    );
    expect(ads.status).to.equal(200);
    expect(ads.body.data[0]).to.deep.include({
      platformAdAccountId: ADS,
      name: 'Acme Coffee Ads',
      currency: 'EUR',
      timezone: 'Europe/Berlin',
      platformStatus: 'active',
      businessName: 'Acme Coffee GmbH',
      connected: false,
    });
    expect(ads.body.data[1]).to.include({ platformStatus: 'closed', businessName: null });
    const adAccounts = await connectAdAccounts(t.app, t.owner, pendingConnectionId, [ADS]);
    expect(adAccounts.status, JSON.stringify(adAccounts.body)).to.equal(201);
    expect(adAccounts.body.data[0]).to.include({
      platform: 'social_network',
      platformAdAccountId: ADS,
      status: 'connected',
      platformStatus: 'active',
    });
    expect(Date.parse(adAccounts.body.data[0].tokenExpiresAt) - Date.now()).to.be.above(59 * 24 * 3600 * 1000);

    const listed = await t.app.api.get('/accounts', { token: t.owner.key });
    expect(listed.body.data.map((a: { platformAccountId: string }) => a.platformAccountId).sort()).to.deep.equal([ACME, KREUZBERG].sort());
    expect((await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data.map((a: { id: string }) => a.id)).to.deep.equal([
      adAccounts.body.data[0].id,
    ]);
    const connected = await t.inbox.waitFor(3);
    for (const request of connected) assertSigned(request, hook.body.secret);
    expect(
      events()
        .map((e) => e.data.accountType)
        .sort(),
    ).to.deep.equal(['account', 'account', 'ad_account']);

    const about = await t.app.api.get(`/accounts/${pages.body.data[1].id}/about`, { token: t.owner.key });
    expect(about.status).to.equal(200);
    expect(about.body).to.include({
      platform: 'social_network',
      platformAccountId: ACME,
      name: 'Acme Coffee',
      username: 'acmecoffee',
      category: 'Coffee shop',
      followersCount: 12840,
      bio: 'Specialty coffee roasted in Berlin since 2014.',
    });
  });

  it("refuses what the grant does not cover, another profile's pending connection, an expired one, and a page of another profile", async () => {
    const pendingConnectionId = await pendingConnection(t.app, t.owner);
    const foreign = await connectPages(t.app, t.owner, pendingConnectionId, [ACME, '999999999']);
    expect(foreign.status).to.equal(422);
    expect(foreign.body.code).to.equal('selection_not_available');
    expect((await t.app.api.get('/accounts', { token: t.owner.key })).body.data).to.deep.equal([]);

    const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
    const elsewhere = await connectPages(t.app, t.owner, pendingConnectionId, [ACME], second.body.id);
    expect(elsewhere.status).to.equal(404);
    const stranger = await newOwner(t.app.api);
    expect(
      (
        await t.app.api.get(`/profiles/${stranger.profileId}/connect/social_network/available?pendingConnectionId=${pendingConnectionId}`, {
          token: stranger.key,
        })
      ).status,
    ).to.equal(404);

    expect((await connectPages(t.app, t.owner, pendingConnectionId, [ACME])).status).to.equal(201);
    const secondPending = await pendingConnection(t.app, t.owner, { profileId: second.body.id });
    const taken = await connectPages(t.app, t.owner, secondPending, [KREUZBERG, ACME], second.body.id);
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('account_already_connected');
    expect((await t.app.api.get(`/accounts?profileId=${second.body.id}`, { token: t.owner.key })).body.data).to.deep.equal([]);

    await t.app.services
      .db('pendingConnections')
      .where({ id: pendingConnectionId })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/adaccounts/available?pendingConnectionId=${pendingConnectionId}`,
      { token: t.owner.key },
    );
    expect(expired.status).to.equal(422);
    expect(expired.body.code).to.equal('pending_connection_expired');
  });

  it('without the ads permissions, ad accounts are not available; a declined dialog connects nothing', async () => {
    await socialNetwork.newPerson({ declineScopes: ['ads_management', 'ads_read'] });
    const pendingConnectionId = await pendingConnection(t.app, t.owner);
    const ads = await t.app.api.get(
      `/profiles/${t.owner.profileId}/connect/social_network/adaccounts/available?pendingConnectionId=${pendingConnectionId}`,
      { token: t.owner.key },
    );
    expect(ads.status).to.equal(422);
    expect(ads.body.code).to.equal('selection_not_available');
    const declined = await authorise(t.app, t.owner, 'social_network', { decision: 'deny' });
    expect(declined.searchParams.get('status')).to.equal('denied');
    expect(declined.searchParams.get('error')).to.equal('access_denied');
  });

  it('a Messenger message to a page arrives as message.received with exactly the specified data', async () => {
    const pat = await socialNetwork.newPerson();
    const [page] = (await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), [pat.pageIds[0]!])).body.data;
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['message.received'] } });
    const sent = await socialNetwork.sendMessage(pat.pageIds[0]!, 'Do you ship to Hamburg?', '7000000000000042');
    expect(sent.webhookStatus).to.equal(200);
    expect(sent.deliveries[0]!.url).to.equal(`${t.app.services.config.publicUrl}/webhooks/social_network`);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body).to.include({ event: 'message.received', profileId: t.owner.profileId });
    expect(Object.keys(body.data).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);
    expect(body.data).to.include({
      accountId: page.id,
      from: '7000000000000042',
      text: 'Do you ship to Hamburg?',
      platform: 'social_network',
    });
    expect(body.data.msgId).to.match(/^msg_/);
  });

  it('answers the handshake with the verify token only; refuses forged webhooks (401) and stores nothing', async () => {
    const verifyToken = t.app.services.platforms.get('social_network')!.webhooks.verifyToken;
    const ok = await t.app.api.get(`/webhooks/social_network?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`);
    expect([ok.status, ok.text]).to.deep.equal([200, '1158201444']);
    expect((await t.app.api.get('/webhooks/social_network?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1')).status).to.equal(403);

    const before = await t.app.services
      .db('platformWebhooks')
      .where({ platform: 'social_network' })
      .count<{ count: string }[]>('* as count');
    const message = {
      object: 'page',
      entry: [
        {
          id: ACME,
          time: 1,
          messaging: [{ sender: { id: '1' }, recipient: { id: ACME }, timestamp: 1, message: { mid: 'm_forged', text: 'forged' } }],
        },
      ],
    };
    const wrongKey = `sha256=${createHmac('sha256', 'not-the-app-secret').update(JSON.stringify(message)).digest('hex')}`;
    const forged = await t.app.api.post('/webhooks/social_network', { body: message, headers: { 'X-Hub-Signature-256': wrongKey } });
    expect(forged.status).to.equal(401);
    expect(forged.body.code).to.equal('invalid_signature');
    expect((await t.app.api.post('/webhooks/social_network', { body: message })).status).to.equal(401);
    const payload = Buffer.from(JSON.stringify({ algorithm: 'HMAC-SHA256', issued_at: 1, user_id: DEMO_USER.id })).toString('base64url');
    const badSignature = createHmac('sha256', 'not-the-app-secret').update(payload).digest('base64url');
    const deauth = await t.app.api.post('/webhooks/social_network', {
      rawBody: new URLSearchParams({ signed_request: `${badSignature}.${payload}` }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(deauth.status).to.equal(401);
    const after = await t.app.services
      .db('platformWebhooks')
      .where({ platform: 'social_network' })
      .count<{ count: string }[]>('* as count');
    expect(after[0]!.count).to.equal(before[0]!.count);
    const good = `sha256=${createHmac('sha256', SANDBOX_APP.secret).update(JSON.stringify(message)).digest('hex')}`;
    expect((await t.app.api.post('/webhooks/social_network', { body: message, headers: { 'X-Hub-Signature-256': good } })).status).to.equal(
      200,
    );
  });

  it('the person removing the app turns pages and ad accounts into account.needs_reconnection, never account.disconnected; DELETE then disconnects once', async () => {
    const pat = await socialNetwork.newPerson();
    const pendingConnectionId = await pendingConnection(t.app, t.owner);
    const pages = (await connectPages(t.app, t.owner, pendingConnectionId, pat.pageIds)).body.data as Array<{ id: string }>;
    const [adAccount] = (await connectAdAccounts(t.app, t.owner, pendingConnectionId, pat.adAccountIds)).body.data as Array<{ id: string }>;
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.needs_reconnection', 'account.disconnected'] },
    });

    const removed = await socialNetwork.removeApp(pat.userId);
    expect(removed.deauthorization.status).to.equal(200);
    expect(removed.permissions[0]!.status).to.equal(200);
    const reconnect = await t.inbox.waitFor(3);
    for (const request of reconnect) assertSigned(request, hook.body.secret);
    expect(
      events()
        .map((e) => `${e.event}:${e.data.accountId}`)
        .sort(),
    ).to.deep.equal([...pages.map((p) => `account.needs_reconnection:${p.id}`), `account.needs_reconnection:${adAccount!.id}`].sort());
    // The deauthorize callback (token_revoked) and the permissions webhook (permission_missing) race; one of them wins.
    expect((await t.app.api.get(`/accounts/${pages[0]!.id}`, { token: t.owner.key })).body).to.include({ status: 'needs_reconnection' });
    expect((await t.app.api.get('/adaccounts', { token: t.owner.key })).body.data[0]).to.include({ status: 'needs_reconnection' });

    expect((await t.app.api.delete(`/accounts/${pages[0]!.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/accounts/${pages[0]!.id}`, { token: t.owner.key })).status).to.equal(204);
    await t.inbox.waitFor(4);
    await quiescent(t.app);
    expect(
      events()
        .filter((e) => e.event === 'account.disconnected')
        .map((e) => e.data.accountId),
    ).to.deep.equal([pages[0]!.id]);
    expect(events()).to.have.length(4);
  });

  it("a page token revoked on the platform (190) needs reconnection; throttling (4) answers 429 with the platform's wait and is recorded, not a reconnection", async () => {
    const pat = await socialNetwork.newPerson({ pages: 1 });
    const [page] = (await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), pat.pageIds)).body.data;
    const hook = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/h`, events: ['account.needs_reconnection'] },
    });
    const usage = JSON.stringify({
      [pat.pageIds[0]!]: [{ type: 'pages', call_count: 100, total_time: 30, total_cputime: 30, estimated_time_to_regain_access: 7 }],
    });
    await socialNetwork.failNextCall({
      code: 4,
      message: '(#4) Application request limit reached',
      headers: { 'X-Business-Use-Case-Usage': usage },
    });
    const throttled = await t.app.api.get(`/accounts/${page.id}/about`, { token: t.owner.key });
    expect([throttled.status, throttled.body.code]).to.deep.equal([429, 'platform_rate_limited']);
    expect(Number(throttled.headers.get('retry-after'))).to.be.within(6 * 60, 7 * 60);
    const [health] = (await t.app.api.get('/accounts/health', { token: t.owner.key })).body.data;
    expect(health).to.include({ status: 'connected', health: 'degraded', action: 'wait' });
    expect(health.lastError).to.include({ code: 'rate_limited', platformCode: '4' });

    await socialNetwork.revokeToken((await storedAccount(t.app, page.id)).credentials.accessToken);
    expect((await t.app.api.get(`/accounts/${page.id}/about`, { token: t.owner.key })).status).to.equal(409);
    const [request] = await t.inbox.waitFor(1);
    assertSigned(request!, hook.body.secret);
    expect(JSON.parse(request!.rawBody).data).to.include({
      accountId: page.id,
      status: 'needs_reconnection',
      statusReason: 'token_revoked',
    });
  });
});

describeApi('social_network — disconnecting a page or an ad account unsubscribes the app from its webhooks', (t) => {
  const { socialNetwork } = t.sandbox;

  /** Where a person's comment on a new post of the page sends the page's `feed` webhook. */
  async function webhooksOf(pageId: string): Promise<string[]> {
    const post = await socialNetwork.postInApp(pageId, 'Autumn roast is in');
    return (await socialNetwork.comment(post.id, 'Decaf too?')).deliveries.map((delivery) => delivery.url);
  }
  const ours = () => `${t.app.services.config.publicUrl}/webhooks/social_network`;

  it('deleteAccount — the page sends no more webhooks; a page another owner still has connected keeps them', async () => {
    const pat = await socialNetwork.newPerson({ pages: 2, adAccounts: 0 });
    const pages = (await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), pat.pageIds)).body.data as Array<{
      id: string;
    }>;
    const other = await newOwner(t.app.api);
    await socialNetwork.signIn(pat.userId);
    expect((await connectPages(t.app, other, await pendingConnection(t.app, other), [pat.pageIds[1]!])).status).to.equal(201);
    expect(await webhooksOf(pat.pageIds[0]!)).to.deep.equal([ours()]);

    expect((await t.app.api.delete(`/accounts/${pages[0]!.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.delete(`/accounts/${pages[1]!.id}`, { token: t.owner.key })).status).to.equal(204);
    expect(await webhooksOf(pat.pageIds[0]!)).to.deep.equal([]);
    expect(await webhooksOf(pat.pageIds[1]!)).to.deep.equal([ours()]);
  });

  it('deleteAdAccount — the ad account sends no more webhooks', async () => {
    const marketing = new MarketingPeople(() => t.app);
    const ad = await connectNewAdAccount(t.app, t.owner);
    expect((await marketing.recommend(ad.platformAdAccountId, [])).deliveries.map((d) => d.url)).to.deep.equal([ours()]);
    expect((await t.app.api.delete(`/adaccounts/${ad.adAccountId}`, { token: t.owner.key })).status).to.equal(204);
    expect((await marketing.recommend(ad.platformAdAccountId, [])).deliveries).to.deep.equal([]);
  });

  it('a refusal of the unsubscription does not stop the disconnect; a page token no longer valid is disconnected too', async () => {
    const pat = await socialNetwork.newPerson({ pages: 2, adAccounts: 0 });
    const pages = (await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), pat.pageIds)).body.data as Array<{
      id: string;
    }>;
    await socialNetwork.failNextCall({ code: 2, message: 'Service temporarily unavailable' });
    expect((await t.app.api.delete(`/accounts/${pages[0]!.id}`, { token: t.owner.key })).status).to.equal(204);
    expect(await webhooksOf(pat.pageIds[0]!), 'the page still subscribed after the refusal').to.deep.equal([ours()]);
    await socialNetwork.revokeToken((await storedAccount(t.app, pages[1]!.id)).credentials.accessToken);
    expect((await t.app.api.delete(`/accounts/${pages[1]!.id}`, { token: t.owner.key })).status).to.equal(204);
    for (const page of pages)
      expect((await t.app.api.get(`/accounts/${page.id}`, { token: t.owner.key })).body).to.include({
        status: 'disconnected',
        statusReason: 'disconnected_by_user',
      });
  });

  it('deleteProfile — its pages are unsubscribed after the commit', async () => {
    const pat = await socialNetwork.newPerson({ pages: 1, adAccounts: 0 });
    expect((await connectPages(t.app, t.owner, await pendingConnection(t.app, t.owner), pat.pageIds)).status).to.equal(201);
    expect((await t.app.api.delete(`/profiles/${t.owner.profileId}`, { token: t.owner.key })).status).to.equal(204);
    await quiescent(t.app);
    expect(await webhooksOf(pat.pageIds[0]!)).to.deep.equal([]);
  });
});
