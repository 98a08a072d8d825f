import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { SANDBOX_APP } from '../../../src/sandbox/social-network/demo.js';
import { describeApi } from '../../support/harness.js';
import { connectBot, type Writer } from '../../support/sandbox/botchat.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent, until } from '../../support/wait.js';
import { createAutomation, finishedRuns, runsOf, tagging, tagsByPerson } from './support.js';

describeApi('automations — what triggers them, in which order, and how often', (t) => {
  const { botchat, socialNetwork } = t.sandbox;
  const lena: Writer = { id: 501, firstName: 'Lena' };
  const omar: Writer = { id: 502, firstName: 'Omar' };

  /** People write to the bot, one after the other; answers once every message is stored and every run finished. */
  async function write(token: string, messages: Array<[Writer, string]>): Promise<void> {
    for (const [from, text] of messages) expect((await botchat.sendMessage(token, text, from)).webhookStatus).to.equal(200);
    await quiescent(t.app);
    await until(() => t.app.services.db('automationRuns').where({ status: 'running' }).count<{ count: string }[]>('* as count'), {
      done: ([row]) => Number(row!.count) === 0,
      what: 'every run to finish',
    });
  }

  it('matches keywords as contained words, exactly, or by regular expression, with or without case', async () => {
    const bot = await connectBot(t.app, t.owner);
    await createAutomation(t, tagging(bot.accountId, 'contains', { keywords: ['price', 'how much'] }));
    await createAutomation(t, tagging(bot.accountId, 'exact', { keywords: ['STOP'], matchType: 'exact', caseSensitive: true }));
    await createAutomation(t, tagging(bot.accountId, 'regex', { keywords: ['^order #\\d{4}$'], matchType: 'regex' }));
    const people = Array.from({ length: 8 }, (_, n): Writer => ({ id: 600 + n, firstName: `P${n}` }));
    await write(bot.token, [
      [people[0]!, 'What is the PRICE?'],
      [people[1]!, 'priceless, thanks'],
      [people[2]!, 'So how much is it'],
      [people[3]!, '  STOP '],
      [people[4]!, 'stop'],
      [people[5]!, 'please STOP now'],
      [people[6]!, 'ORDER #1234'],
      [people[7]!, 'order #12345'],
    ]);
    const tags = await tagsByPerson(t, bot.accountId);
    expect(people.map((person) => tags[String(person.id)])).to.deep.equal([
      ['contains'],
      [],
      ['contains'],
      ['exact'],
      [],
      [],
      ['regex'],
      [],
    ]);
  });

  it('tries automations by priority, then age; stopOnMatch ends the search once one has run', async () => {
    const bot = await connectBot(t.app, t.owner);
    const low = await createAutomation(t, tagging(bot.accountId, 'low', { keywords: ['hello'] }, { priority: 1 }));
    const high = await createAutomation(t, tagging(bot.accountId, 'high', { keywords: ['hello'] }, { priority: 5, stopOnMatch: true }));
    await createAutomation(t, tagging(bot.accountId, 'other', { keywords: ['bye'] }, { priority: 9, stopOnMatch: true }));
    await write(bot.token, [
      [lena, 'hello there'],
      [omar, 'bye'],
    ]);
    const tags = await tagsByPerson(t, bot.accountId);
    expect(tags[String(lena.id)]).to.deep.equal(['high']);
    expect(tags[String(omar.id)]).to.deep.equal(['other']);
    expect(await runsOf(t, low.id)).to.deep.equal([]);
    expect(await runsOf(t, high.id)).to.have.length(1);

    await t.app.api.patch(`/automations/${high.id}`, { token: t.owner.key, body: { stopOnMatch: false } });
    await write(bot.token, [[omar, 'hello again']]);
    // Runs of one message are performed side by side: the order of the tags is theirs.
    expect((await tagsByPerson(t, bot.accountId))[String(omar.id)]).to.have.members(['other', 'high', 'low']);
  });

  it('holds a person back for the cooldown, and for good with oncePerPerson; others still trigger it', async () => {
    const bot = await connectBot(t.app, t.owner);
    const cooled = await createAutomation(t, tagging(bot.accountId, 'cooled', {}, { cooldownSeconds: 3600 }));
    const once = await createAutomation(t, tagging(bot.accountId, 'once', {}, { oncePerPerson: true }));
    const always = await createAutomation(t, tagging(bot.accountId, 'always'));
    await write(bot.token, [
      [lena, 'one'],
      [lena, 'two'],
      [omar, 'three'],
      [lena, 'four'],
    ]);
    const personOf = (runs: Array<{ from: { id: string } }>) => runs.map((run) => run.from.id).reverse();
    expect(personOf(await runsOf(t, cooled.id))).to.deep.equal(['501', '502']);
    expect(personOf(await runsOf(t, once.id))).to.deep.equal(['501', '502']);
    expect(personOf(await runsOf(t, always.id))).to.deep.equal(['501', '501', '502', '501']);
  });

  it("never triggers on the account's own messages, nor once paused", async () => {
    const bot = await connectBot(t.app, t.owner);
    const account = await t.app.api.get(`/accounts/${bot.accountId}`, { token: t.owner.key });
    const automation = await createAutomation(t, tagging(bot.accountId, 'seen'));
    await write(bot.token, [[{ id: Number(account.body.platformAccountId), firstName: 'The bot itself' }, 'an echo']]);
    expect(await runsOf(t, automation.id)).to.deep.equal([]);
    await t.app.api.patch(`/automations/${automation.id}`, { token: t.owner.key, body: { active: false } });
    await write(bot.token, [[lena, 'while paused']]);
    expect(await runsOf(t, automation.id)).to.deep.equal([]);
    await t.app.api.patch(`/automations/${automation.id}`, { token: t.owner.key, body: { active: true } });
    await write(bot.token, [[lena, 'resumed']]);
    expect((await runsOf(t, automation.id)).map((run) => run.text)).to.deep.equal(['resumed']);
  });

  it('runs once per message when the platform delivers it twice, batched differently, or out of order', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const automation = await createAutomation(t, tagging(page.accountId, 'seen'));
    const sent = await socialNetwork.sendMessage(page.pageId, 'first', '7100000000000001');
    expect(sent.webhookStatus).to.equal(200);
    // The sandbox answers the webhook it delivered: the same message is delivered again below.
    const { payload } = sent as typeof sent & { payload: { entry: Array<{ messaging: Array<{ timestamp: number }> }> } };
    const first = payload.entry[0]!.messaging[0]!;
    const later = { ...first, timestamp: first.timestamp + 1000, message: { mid: 'm_later_message', text: 'second' } };
    const deliver = async (messaging: unknown[]) => {
      const body = JSON.stringify({ object: 'page', entry: [{ id: page.pageId, time: Date.now(), messaging }] });
      const signature = `sha256=${createHmac('sha256', SANDBOX_APP.secret).update(body).digest('hex')}`;
      const answer = await t.app.api.post('/webhooks/social_network', {
        rawBody: body,
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
      });
      expect(answer.status).to.equal(200);
    };
    await deliver([later, first]);
    await deliver([first]);
    await deliver([later]);
    await quiescent(t.app);
    const runs = await finishedRuns(t, automation.id, 2);
    expect(runs.map((run) => run.text).sort()).to.deep.equal(['first', 'second']);
    const rows = await t.app.services.db('automationRuns').where({ automationId: automation.id });
    expect(rows).to.have.length(2);
  });

  it('tags as it stores the message: a run that only tags is performed and finished with it, and no worker takes it', async () => {
    const bot = await connectBot(t.app, t.owner);
    const automation = await createAutomation(t, tagging(bot.accountId, 'asked', { keywords: ['price'] }));
    await t.app.automations!.stop();
    try {
      expect((await botchat.sendMessage(bot.token, 'the price?', lena)).webhookStatus).to.equal(200);
      await quiescent(t.app);
      const [run] = await finishedRuns(t, automation.id, 1);
      expect(run).to.deep.include({ status: 'succeeded', matchedKeyword: 'price' });
      expect(await tagsByPerson(t, bot.accountId)).to.deep.equal({ [String(lena.id)]: ['asked'] });
      const [stored] = await t.app.services.db('automationRuns').where({ automationId: automation.id });
      const [message] = await t.app.services.db('messages').where({ id: stored.sourceId });
      // One transaction wrote the message and finished its run.
      expect(stored.attempts).to.equal(0);
      expect(stored.finishedAt.getTime()).to.equal(message.createdAt.getTime());
    } finally {
      await t.app.automations!.start();
    }
  });
});
