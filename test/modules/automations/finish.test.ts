import { expect } from 'chai';
import { finishRuns, runFinisher } from '../../../src/modules/automations/finish.js';
import type { ActionOutcome, RunRecord } from '../../../src/modules/automations/rows.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent, until } from '../../support/wait.js';
import { createAutomation, runsOf, tagging } from './support.js';

describeApi('automations — runs finished together', (t) => {
  const { botchat } = t.sandbox;
  const succeeded: ActionOutcome = { status: 'succeeded', error: null, finishedAt: '2026-11-24T05:00:00.000Z' };
  const failed: ActionOutcome = {
    status: 'failed',
    error: { code: 'tag_limit_reached', message: 'The conversation has 20 tags already.', platformError: null },
    finishedAt: '2026-11-24T05:00:01.000Z',
  };

  /**
   * Two replying automations (a reply is left to the workers; a tag would be performed as the run starts), both
   * matching each of `people` messages; answers them and their runs, left running.
   */
  async function runsLeftRunning(people: number) {
    const bot = await connectBot(t.app, t.owner);
    const replying = { actions: [{ type: 'reply_message', text: 'Hello' }] };
    const first = await createAutomation(t, tagging(bot.accountId, 'first', { keywords: ['x'] }, replying));
    const second = await createAutomation(t, tagging(bot.accountId, 'second', { keywords: ['x'] }, replying));
    // Nobody performs the runs: the test finishes them itself.
    await t.app.automations!.stop();
    for (let n = 0; n < people; n += 1) await botchat.sendMessage(bot.token, 'x', { id: 800 + n, firstName: `P${n}` });
    await quiescent(t.app, { besides: ['automations'] });
    const runs = await until(() => t.app.services.db('automationRuns').whereIn('automationId', [first.id, second.id]).orderBy('id'), {
      done: (rows) => rows.length === 2 * people,
      what: `${2 * people} runs`,
    });
    return { first, second, runs: runs as RunRecord[] };
  }

  const idsOf = (runs: RunRecord[]) => runs.map((run) => run.id).sort();

  async function triggeredRunIds(): Promise<string[]> {
    const events = (await t.app.services.db('events').where({ ownerId: t.owner.ownerId, name: 'automation.triggered' })) as Array<{
      data: { runId: string };
    }>;
    return events.map((event) => event.data.runId).sort();
  }

  async function statsOf(automationId: string) {
    return (await t.app.api.get(`/automations/${automationId}`, { token: t.owner.key })).body.stats;
  }

  it('finishes runs with their last outcome and counts each automation by its runs in one go, skipping a run another worker finished', async () => {
    const { first, second, runs } = await runsLeftRunning(3);
    const ofFirst = runs.filter((run) => run.automationId === first.id);
    const ofSecond = runs.filter((run) => run.automationId === second.id);
    // Another worker took this run over and finished it already.
    const takenOver = ofFirst[0]!;
    await t.app.services.db('automationRuns').where({ id: takenOver.id }).update({ status: 'succeeded', finishedAt: new Date() });

    await finishRuns(t.app.services.db, [
      ...ofFirst.map((run) => ({ run, outcomes: [succeeded] })),
      ...ofSecond.map((run, n) => ({ run, outcomes: [n === 0 ? failed : succeeded] })),
    ]);

    const logged = [...(await runsOf(t, first.id)), ...(await runsOf(t, second.id))];
    const byId = new Map(logged.map((run) => [run.id, run]));
    expect(byId.get(takenOver.id)).to.deep.include({ status: 'succeeded' });
    expect(byId.get(takenOver.id).actions[0].status).to.equal('pending');
    for (const run of [...ofFirst.slice(1), ...ofSecond.slice(1)]) {
      expect(byId.get(run.id).status).to.equal('succeeded');
      expect(byId.get(run.id).actions[0]).to.deep.include({ status: 'succeeded', finishedAt: succeeded.finishedAt });
    }
    expect(byId.get(ofSecond[0]!.id).status).to.equal('failed');
    expect(byId.get(ofSecond[0]!.id).actions[0].error).to.deep.equal(failed.error);

    expect(await statsOf(first.id)).to.deep.include({ triggeredCount: 2, succeededCount: 2, failedCount: 0 });
    const secondStats = await statsOf(second.id);
    expect(secondStats).to.deep.include({ triggeredCount: 3, succeededCount: 2, failedCount: 1 });
    expect(secondStats.lastTriggeredAt).to.equal(new Date(Math.max(...ofSecond.map((run) => run.createdAt.getTime()))).toISOString());
    expect(await triggeredRunIds()).to.deep.equal(idsOf(runs.filter((run) => run !== takenOver)));
  });

  it('finishes the runs of a batch that failed one by one; the run that cannot be finished stays running for its lease to run out', async () => {
    const { first, second, runs } = await runsLeftRunning(2);
    // A run whose event cannot be written (an owner that does not exist) fails any transaction it is in. The first
    // run added is written at once, alone; the others wait for it and go together in the next batch.
    const [alone, unfinishable, ...rest] = runs;
    const others = [alone!, ...rest];
    const finisher = runFinisher(t.app.services.db, t.app.services.logger);
    await Promise.all([
      finisher.add({ run: alone!, outcomes: [succeeded] }),
      finisher.add({ run: { ...unfinishable!, ownerId: 'own_01jd3y6w7q5v8k0n2b4c6e8g1h' }, outcomes: [succeeded] }),
      ...rest.map((run) => finisher.add({ run, outcomes: [succeeded] })),
    ]);

    const stillRunning = await t.app.services
      .db('automationRuns')
      .where({ status: 'running' })
      .whereIn('automationId', [first.id, second.id]);
    expect(idsOf(stillRunning)).to.deep.equal([unfinishable!.id]);
    expect(await triggeredRunIds()).to.deep.equal(idsOf(others));
    const counted = (await statsOf(first.id)).triggeredCount + (await statsOf(second.id)).triggeredCount;
    expect(counted).to.equal(others.length);
  });
});
