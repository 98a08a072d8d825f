import { expect } from 'chai';
import { emitEvents } from '../../../src/modules/events/emit.js';
import { describeApi } from '../../support/harness.js';
import { publishedData } from '../../support/webhooks.js';

const BURST = 40;

describeApi('outgoing webhooks — connections to one endpoint', { settings: { webhooks: { connectionsPerHost: 2 } } }, (t) => {
  it('sends a burst to one endpoint over at most WEBHOOK_CONNECTIONS_PER_HOST connections, each delivery once', async () => {
    const created = await t.app.api.post('/hooks', {
      token: t.owner.key,
      body: { url: `${t.inbox.url}/burst`, events: ['post.published'] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // Committed together: fanned out at once, every delivery in flight together, far more than the connections.
    await emitEvents(
      t.app.services.db,
      Array.from({ length: BURST }, (_, i) => ({
        ownerId: t.owner.ownerId,
        profileId: t.owner.profileId,
        name: 'post.published' as const,
        data: publishedData(`p${i}`),
      })),
    );
    const received = await t.inbox.waitFor(BURST);
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size, 'each delivery once').to.equal(BURST);
    expect(new Set(received.map((request) => request.senderPort)).size).to.be.within(1, 2);
  });
});
