import { expect } from 'chai';
import { checkPlatformSides } from '../../../src/modules/accounts/platform-check.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';

describeApi('account health — the platform side checked', (t) => {
  const healthOf = async (accountId: string) => {
    const listed = await t.app.api.get('/accounts/health?platform=botchat', { token: t.owner.key });
    expect(listed.status).to.equal(200);
    return listed.body.data.find((entry: { accountId: string }) => entry.accountId === accountId);
  };
  /** The bot's owner points its webhook away from the service, at the platform (or a restart forgot it). */
  const dropWebhook = async (token: string) => {
    const dropped = await fetch(`${t.app.services.sandboxUrl}/botchat/bot${token}/deleteWebhook`, { method: 'POST' });
    expect(dropped.status).to.equal(200);
  };

  it('a bot just connected says it is not checked yet, not that it works, until the first check', async () => {
    const { accountId } = await connectBot(t.app, t.owner);
    const unchecked = await healthOf(accountId);
    expect(unchecked).to.include({ status: 'connected', health: 'unchecked', action: 'none', checkedAt: null });
    expect(unchecked.message).to.include('not checked yet');
    await checkPlatformSides(t.app.services);
    const checked = await healthOf(accountId);
    expect(checked).to.include({ health: 'healthy', action: 'none', message: 'Connected and working.' });
    expect(checked.checkedAt).to.be.a('string');
  });

  it('a bot whose webhook is no longer ours is degraded, says to connect it again, and connecting it again repairs it', async () => {
    const { accountId, token } = await connectBot(t.app, t.owner);
    await checkPlatformSides(t.app.services);
    expect(await healthOf(accountId)).to.include({ health: 'healthy', action: 'none' });

    await dropWebhook(token);
    await checkPlatformSides(t.app.services);
    const degraded = await healthOf(accountId);
    expect(degraded).to.include({ status: 'connected', health: 'degraded', action: 'reconnect' });
    expect(degraded.message).to.include('no webhook').and.include('Connect the account again');

    const again = await t.app.api.post('/connect/botchat', { token: t.owner.key, body: { profileId: t.owner.profileId, botToken: token } });
    expect(again.body.id).to.equal(accountId);
    expect(await healthOf(accountId)).to.include({ health: 'healthy', action: 'none' });
    await checkPlatformSides(t.app.services);
    expect(await healthOf(accountId)).to.include({ health: 'healthy', action: 'none' });
  });

  it('a bot whose token was revoked is found by the check and needs reconnection', async () => {
    const { accountId, token } = await connectBot(t.app, t.owner);
    await t.sandbox.botchat.revokeToken(token);
    await checkPlatformSides(t.app.services);
    expect(await healthOf(accountId)).to.include({ status: 'needs_reconnection', health: 'unhealthy', action: 'reconnect' });
  });
});
