import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { until } from '../../support/wait.js';
import {
  BoostPeople,
  boostBody,
  boostable,
  EDGES,
  expectNothingLeft,
  expectOneBoost,
  KIND_OF,
  platformObjects,
  testBoostSettings,
} from './boost-support.js';

describeApi('boostPost — the worker killed at each step of a boost, and another taking over', { settings: testBoostSettings(1) }, (t) => {
  const people = new BoostPeople(() => t.app);
  const boost = (body: Record<string, unknown>) => t.app.api.post('/ads/boost', { token: t.owner.key, body });
  const read = (boostId: string) => t.app.api.get(`/ads/boosts/${boostId}`, { token: t.owner.key });

  for (const [index, edge] of EDGES.entries()) {
    it(`killed once the platform made the ${KIND_OF[edge]}, before recording it: the next worker completes the boost, each object made once`, async function () {
      this.timeout(30_000);
      const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
      const worker = await CrashableWorker.standIn(t.app, 'adBoosts', { dieAfter: index });
      try {
        const answered = await boost(boostBody(ad.adAccountId, postId));
        expect(answered.status, answered.text).to.equal(202);
        await until(() => worker.dead, { what: 'the worker to die after the step' });
        const recorded = (await read(answered.body.id)).body;
        expect(recorded.status).to.equal('creating');
        expect(recorded.steps[index].state, 'the dead worker recorded nothing of its step').to.equal('sending');
        expect((await platformObjects(t.app, ad.platformAdAccountId)).objects, 'the platform has the step').to.have.length(index + 1);

        await worker.replace();
        const done = await until(() => read(answered.body.id), {
          done: (answer) => answer.body.status === 'active',
          what: 'the boost completed by the next worker',
          timeoutMs: 20_000,
        });
        expect(done.body.steps.map((step: any) => step.state)).to.deep.equal(['done', 'done', 'done', 'done']);
        await expectOneBoost(t.app, ad.platformAdAccountId);
      } finally {
        await worker.stop();
      }
    });
  }

  it('killed while rolling back (the creative deleted, not recorded): the next worker finishes the rollback and nothing is left', async function () {
    this.timeout(30_000);
    const { ad, postId } = await boostable(t.app, t.owner, t.sandbox.socialNetwork);
    await people.fail(ad.platformAdAccountId, 'ads', 'refuse');
    // Three steps made, the fourth refused, then the first deletion (the creative): the worker dies after it.
    const worker = await CrashableWorker.standIn(t.app, 'adBoosts', { dieAfter: 4 });
    try {
      const answered = await boost(boostBody(ad.adAccountId, postId));
      await until(() => worker.dead, { what: 'the worker to die during the rollback' });
      const recorded = (await read(answered.body.id)).body;
      expect(recorded.status).to.equal('rolling_back');
      expect(recorded.steps.map((step: any) => step.state)).to.deep.equal(['done', 'done', 'done', 'refused']);

      await worker.replace();
      await until(() => read(answered.body.id), {
        done: (answer) => answer.body.status === 'failed',
        what: 'the boost rolled back by the next worker',
        timeoutMs: 20_000,
      });
      await expectNothingLeft(t.app, ad.platformAdAccountId);
    } finally {
      await worker.stop();
    }
  });
});
