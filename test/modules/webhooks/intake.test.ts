import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { quiescent, until } from '../../support/wait.js';
import { storeRefuses } from './support.js';

describeApi('platform webhook intake — order, retries and giving up', (t) => {
  const { botchat } = t.sandbox;
  const lena = { id: 601, firstName: 'Lena' };

  /** The texts of a conversation's messages, oldest first, as the owner reads them. */
  async function conversationTexts(accountId: string): Promise<string[]> {
    const [conversation] = (await t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key })).body.data;
    if (!conversation) return [];
    const read = await t.app.api.get(`/accounts/${accountId}/conversations/${conversation.id}?limit=100`, { token: t.owner.key });
    return (read.body.messages.data as Array<{ text: string }>).map((message) => message.text).reverse();
  }

  /** The account's stored webhooks in the order received, with the text each carries. */
  async function storedWebhooks(accountId: string) {
    const rows = (await t.app.services.db('platformWebhooks').where({ sourceAccountId: accountId }).orderBy('id')) as Array<{
      body: string;
      attempts: number;
      error: string | null;
      processedAt: Date | null;
      failedAt: Date | null;
    }>;
    return rows.map(({ body, attempts, error, processedAt, failedAt }) => ({
      text: (JSON.parse(body) as { message: { text: string } }).message.text,
      attempts,
      error,
      processed: processedAt !== null,
      givenUp: failedAt !== null,
    }));
  }

  it('stores a burst of messages to one conversation in the order their webhooks were received, each once', async () => {
    const bot = await connectBot(t.app, t.owner);
    const texts = Array.from({ length: 40 }, (_, n) => `burst ${n}`);
    // All at once: the order is the order in which we stored them.
    const sent = await Promise.all(texts.map((text) => botchat.sendMessage(bot.token, text, lena)));
    expect(sent.map(({ webhookStatus }) => webhookStatus)).to.deep.equal(texts.map(() => 200));
    await quiescent(t.app);
    const received = (await storedWebhooks(bot.accountId)).map(({ text }) => text);
    expect([...received].sort()).to.deep.equal([...texts].sort());
    expect(await conversationTexts(bot.accountId)).to.deep.equal(received);
  });

  it('answers 500 to a webhook it cannot store, for the platform to send it again, and stores those received with it', async () => {
    const bot = await connectBot(t.app, t.owner);
    const { db } = t.app.services;
    await db.raw(`CREATE OR REPLACE FUNCTION refuse_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.body LIKE '%refuse me%' THEN RAISE EXCEPTION 'the store refused a webhook'; END IF; RETURN NEW; END $$`);
    await db.raw('CREATE TRIGGER refuse_webhooks BEFORE INSERT ON platform_webhooks FOR EACH ROW EXECUTE FUNCTION refuse_webhooks()');
    try {
      const texts = Array.from({ length: 20 }, (_, n) => (n === 7 ? 'refuse me' : `kept ${n}`));
      const sent = await Promise.all(texts.map((text) => botchat.sendMessage(bot.token, text, lena)));
      expect(sent.map(({ webhookStatus }) => webhookStatus)).to.deep.equal(texts.map((text) => (text === 'refuse me' ? 500 : 200)));
      await quiescent(t.app);
      const stored = (await storedWebhooks(bot.accountId)).map(({ text }) => text);
      expect([...stored].sort()).to.deep.equal(texts.filter((text) => text !== 'refuse me').sort());
    } finally {
      await db.raw('DROP TRIGGER refuse_webhooks ON platform_webhooks');
    }
  });

  it('retries a webhook that failed, after a backoff, holding back the later ones of its account until it is stored', async () => {
    const bot = await connectBot(t.app, t.owner);
    const refusing = await storeRefuses(t.app.services.db);
    try {
      await botchat.sendMessage(bot.token, 'refused at first', lena);
      await botchat.sendMessage(bot.token, 'written after', lena);
      const [failed] = await until(() => storedWebhooks(bot.accountId), {
        done: ([first]) => (first?.attempts ?? 0) >= 1,
        what: 'the first webhook to have failed',
      });
      expect(failed).to.deep.include({ processed: false, givenUp: false });
      expect(failed!.error).to.include('the store refused "refused at first"');
      // Its retry is due in a second; the message written after it waits for it.
      expect(await conversationTexts(bot.accountId)).to.deep.equal([]);
    } finally {
      await refusing.undo();
    }
    await until(() => conversationTexts(bot.accountId), {
      done: (texts) => texts.length === 2,
      what: 'both messages to be stored',
    });
    expect(await conversationTexts(bot.accountId)).to.deep.equal(['refused at first', 'written after']);
    const [retried, after] = await storedWebhooks(bot.accountId);
    // Failed while the store refused (once, or more on a slow machine), then stored on its retry.
    expect(retried).to.deep.include({ text: 'refused at first', error: null, processed: true, givenUp: false });
    expect(retried!.attempts).to.be.within(1, 2);
    expect(after).to.deep.equal({ text: 'written after', attempts: 0, error: null, processed: true, givenUp: false });
  });

  it('gives a webhook up after its last retry, keeping its error, and goes on with the later ones', async () => {
    const bot = await connectBot(t.app, t.owner);
    const refusing = await storeRefuses(t.app.services.db);
    try {
      await botchat.sendMessage(bot.token, 'refuse me always', lena);
      await botchat.sendMessage(bot.token, 'written after', lena);
      await until(() => conversationTexts(bot.accountId), {
        done: (texts) => texts.length === 1,
        what: 'the later message to be stored once the first is given up',
        timeoutMs: 15_000,
      });
    } finally {
      await refusing.undo();
    }
    await quiescent(t.app);
    expect(await conversationTexts(bot.accountId)).to.deep.equal(['written after']);
    // The test app retries after 1 s and 1 s: three attempts in all.
    const [givenUp, after] = await storedWebhooks(bot.accountId);
    expect(givenUp).to.deep.include({ text: 'refuse me always', attempts: 3, processed: false, givenUp: true });
    expect(givenUp!.error).to.include('the store refused "refuse me always"');
    expect(after).to.deep.equal({ text: 'written after', attempts: 0, error: null, processed: true, givenUp: false });
  });
});
