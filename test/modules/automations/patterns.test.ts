import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot, type Writer } from '../../support/sandbox/botchat.js';
import { quiescent, until } from '../../support/wait.js';
import { createAutomation, runsOf, tagging, tagsByPerson } from './support.js';

describeApi("automations — callers' regular expressions never stall the service", (t) => {
  const { botchat } = t.sandbox;

  it('createAutomation proves 20 hard patterns safe off the event loop under one deadline: /health answers meanwhile, and what is undecided is refused with 422 regex_unsafe naming each', async () => {
    const bot = await connectBot(t.app, t.owner);
    // Nested bounded repetition: the checker cannot decide these quickly (each took it 2–3 s on the main thread).
    const hard = Array.from({ length: 20 }, (_, n) => `(?:[a-${String.fromCharCode(102 + n)}]{1,100}){1,100}`);
    let answered = false;
    const creating = t.app.api
      .post('/automations', {
        token: t.owner.key,
        body: { profileId: t.owner.profileId, name: 'hard', ...tagging(bot.accountId, 'x', { matchType: 'regex', keywords: hard }) },
      })
      .finally(() => (answered = true));
    // A few answers while the check runs show the event loop free; more would meet the unauthenticated rate limit.
    let healthAnswers = 0;
    while (!answered && healthAnswers < 5) {
      expect((await t.app.api.get('/health')).status).to.equal(200);
      healthAnswers += 1;
    }
    expect(answered, '/health answered 5 times while the patterns were still being checked').to.equal(false);
    const created = await creating;
    expect(created.status, JSON.stringify(created.body)).to.equal(422);
    expect(created.body.code).to.equal('regex_unsafe');
    const paths = created.body.errors.map((error: { path: string }) => error.path);
    expect(paths).to.have.length.greaterThan(0);
    expect(hard.map((_, n) => `body/trigger/keywords/${n}`)).to.include.members(paths);
    for (const [index, pattern] of hard.entries()) {
      if (paths.includes(`body/trigger/keywords/${index}`)) expect(created.body.detail).to.contain(JSON.stringify(pattern));
    }
    expect((await t.app.api.get('/automations', { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  it('a catastrophic pattern saved before the check matches nothing, and the engine goes on with the other automations', async () => {
    const bot = await connectBot(t.app, t.owner);
    const bomb = await createAutomation(t, tagging(bot.accountId, 'bomb', { matchType: 'regex', keywords: ['^a+$'] }, { priority: 9 }));
    // What an older check let through: exponential on "aaa…a!" (years on the event loop).
    await t.app.services
      .db('automations')
      .where({ id: bomb.id })
      .update({ keywords: ['^(a+)+$'] });
    // Created after: the change it announces makes every process forget the automations it cached. The patterns
    // of one text go to the runner's thread together: the one tried after the stuck one still answers.
    await createAutomation(t, tagging(bot.accountId, 'after', { matchType: 'regex', keywords: ['a!$'] }));
    await createAutomation(t, tagging(bot.accountId, 'plain'));
    const lena: Writer = { id: 701, firstName: 'Lena' };
    expect((await botchat.sendMessage(bot.token, `${'a'.repeat(40)}!`, lena)).webhookStatus).to.equal(200);
    await quiescent(t.app);
    const tags = await until(() => tagsByPerson(t, bot.accountId), {
      done: (byPerson) => (byPerson[String(lena.id)] ?? []).length > 1,
      what: "the plain and the other pattern's automations' tags",
    });
    expect(tags[String(lena.id)]).to.have.members(['after', 'plain']);
    expect(await runsOf(t, bomb.id)).to.deep.equal([]);
    // The engine's thread for patterns was started again: a pattern that matches still does.
    expect((await botchat.sendMessage(bot.token, 'aaaa', { id: 702, firstName: 'Omar' })).webhookStatus).to.equal(200);
    await quiescent(t.app);
    await until(() => tagsByPerson(t, bot.accountId), {
      done: (byPerson) => (byPerson['702'] ?? []).includes('bomb'),
      what: 'the pattern to match "aaaa"',
    });
  });
});
