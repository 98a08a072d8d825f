import { expect } from 'chai';
import { QrchatSessions } from '../../../src/modules/connect/qrchat-sessions.js';
import { describeApi } from '../../support/harness.js';
import { pairNumber } from '../../support/sandbox/qrchat.js';
import { until } from '../../support/wait.js';

const PHONE = '+4915100000091';
const SAM = '+4917000000009';

describeApi('qrchat — a paired number across a normal restart of the service', (t) => {
  const { qrchat } = t.sandbox;
  const healthOf = async (accountId: string) =>
    (await t.app.api.get('/accounts/health', { token: t.owner.key })).body.data.find(
      (entry: { accountId: string }) => entry.accountId === accountId,
    );

  it('is let go of at the stop and taken up at once at the start: health says so meanwhile, what Sam wrote meanwhile is stored, a pending send goes out', async () => {
    const accountId = await pairNumber(t.app, t.owner, PHONE);
    const adapter = t.app.services.platforms.get('qrchat')!;
    // The process that held the session stops (its shutdown); the next one starts below.
    await (adapter.live as QrchatSessions).stop();

    expect(await healthOf(accountId)).to.include({ status: 'connected', health: 'degraded', action: 'wait' });
    expect(await qrchat.sendMessage({ to: PHONE, from: SAM, name: 'Sam', text: 'Are you open tonight?' })).to.equal(0);
    const pending = await t.app.api.post(`/accounts/${accountId}/messages`, {
      token: t.owner.key,
      body: { recipientId: SAM, text: 'Yes, until 10.' },
    });
    expect(pending.status, pending.text).to.equal(202);

    const restarted = new QrchatSessions(t.app.services, adapter);
    restarted.start();
    try {
      const started = Date.now();
      const received = await until(() => t.app.services.db('messages').where({ accountId, direction: 'in' }).select('text'), {
        done: (rows) => rows.length === 1,
        what: 'the message Sam sent while the service was away to be stored',
      });
      expect(received.map((row: { text: string }) => row.text)).to.deep.equal(['Are you open tonight?']);
      await until(() => qrchat.onPlatform(SAM), {
        done: (shown) => shown.some((message) => message.text === 'Yes, until 10.'),
        what: "the pending send to reach Sam's phone",
      });
      expect(Date.now() - started).to.be.below(5_000);
      expect(await healthOf(accountId)).to.include({ health: 'healthy', action: 'none' });
    } finally {
      await restarted.stop();
    }
  });
});
