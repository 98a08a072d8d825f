import { expect } from 'chai';
import type { Knex } from 'knex';
import { idOf, newId } from '../../../src/lib/ids.js';
import { PlatformError } from '../../../src/platforms/errors.js';
import type { Published } from '../../../src/platforms/capabilities/publishing.js';
import { accountById, adapterAccount } from '../../../src/modules/accounts/read.js';
import { WriteInProgressError, WriteKeyReusedError, WriteOutcomeUnknownError } from '../../../src/modules/platform-writes/errors.js';
import { type PlatformWrite, SharedStore, writeOnce, type Written } from '../../../src/modules/platform-writes/ledger.js';
import { applySettlement } from '../../../src/modules/platform-writes/records.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { BotchatPeople, connectBot } from '../../support/sandbox/botchat.js';
import { until } from '../../support/wait.js';

/** A person's private chat with the bot. */
const CHAT = '555000111';

describe('platform writes — a message sent at most once per key, whatever is lost on the way', () => {
  let app: TestApp;
  let owner: TestOwner;
  let bot: { accountId: string; token: string };

  before(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
    bot = await connectBot(app, owner);
  });
  after(async () => {
    await app.close();
  });

  /** What the platform shows the bot sent with this text. */
  const onPlatform = async (text: string) =>
    (await new BotchatPeople(() => app).onPlatform(bot.token)).filter((message) => message.text === text);

  /** The messages the owner sees in the chat's conversation. */
  const inConversation = async (text: string) => {
    const list = await app.api.get(`/accounts/${bot.accountId}/conversations`, { token: owner.key });
    const texts: string[] = [];
    for (const conversation of list.body.data as Array<{ id: string }>) {
      const read = await app.api.get(`/accounts/${bot.accountId}/conversations/${conversation.id}`, { token: owner.key });
      texts.push(
        ...(read.body.messages.data as Array<{ text: string; direction: string }>)
          .filter((m) => m.text === text)
          .map((m) => `${m.direction}:${m.text}`),
      );
    }
    return texts;
  };

  const ledgerRow = (key: string) =>
    app.services.db('platformWrites').where({ ownerId: owner.ownerId, accountId: bot.accountId, key }).first();

  /** The caller's records of a sent message: the chat's conversation and the outgoing message in it. */
  async function storeSent(trx: Knex.Transaction, text: string, sent: Published, direction = 'out'): Promise<void> {
    const row = (await accountById(trx, idOf('acc', bot.accountId)))!;
    const [conversation] = (await trx('conversations')
      .insert({
        id: newId('conv'),
        ownerId: row.ownerId,
        profileId: row.profileId,
        accountId: row.id,
        platformConversationId: CHAT,
        participant: JSON.stringify({ id: CHAT, name: 'Sam', username: null, phone: null }),
        lastMessageAt: new Date(),
      })
      .onConflict(['accountId', 'platformConversationId'])
      .merge({ lastMessageAt: new Date() })
      .returning('id')) as Array<{ id: string }>;
    await trx('messages').insert({
      id: newId('msg'),
      conversationId: conversation!.id,
      accountId: row.id,
      direction,
      fromId: row.platformAccountId!,
      text,
      platformMessageId: sent.platformPostId,
      sentAt: new Date(),
      status: 'sent',
    });
  }

  /** sendMessage to the chat through the botchat adapter's own client, over HTTP to the sandbox. */
  async function sendMessage(text: string): Promise<Published> {
    const account = adapterAccount((await accountById(app.services.db, idOf('acc', bot.accountId)))!, app.services.secrets);
    return app.services.platforms
      .get('botchat')!
      .publisher.publish(account, { text, media: [], options: { chatIds: [CHAT] } }, { state: {}, save: async () => {} });
  }

  /** What a platform that lists what an account sent would answer; the bot API cannot, so only some tests offer it. */
  const askPlatform =
    (text: string) =>
    async (since: Date): Promise<Published | null> => {
      const found = (await onPlatform(text)).find((message) => message.at >= since.getTime() - 1000);
      return found ? { platformPostId: `${found.chatId}:${found.messageId}`, url: null } : null;
    };

  function messageWrite(key: string, text: string, overrides: Partial<PlatformWrite<Published>> = {}): PlatformWrite<Published> {
    return {
      ownerId: owner.ownerId,
      accountId: bot.accountId,
      key,
      kind: 'message.send',
      request: { chatId: CHAT, text },
      send: () => sendMessage(text),
      store: (trx, sent) => storeSent(trx, text, sent),
      ...overrides,
    };
  }

  /** Asks again until the dead attempt's lease has run out, as a later job would. */
  async function retryOnceLeaseRunsOut(write: PlatformWrite<Published>): Promise<Written<Published> | Error> {
    let outcome: Written<Published> | Error | undefined;
    await until(async () => {
      outcome = await writeOnce(app.services.db, write, 1).catch((error: Error) => error);
      return !(outcome instanceof WriteInProgressError);
    });
    return outcome!;
  }

  it('sends once, and the same key asked for again replays the stored answer without sending', async () => {
    const write = messageWrite('order-1001', 'Your order 1001 has shipped.');
    const first = await writeOnce(app.services.db, write);
    const again = await writeOnce(app.services.db, write);
    expect(first.how).to.equal('sent');
    expect(again).to.deep.equal({ result: first.result, how: 'replayed' });
    expect(await onPlatform('Your order 1001 has shipped.')).to.have.length(1);
    expect(await inConversation('Your order 1001 has shipped.')).to.deep.equal(['out:Your order 1001 has shipped.']);
    expect(await ledgerRow('order-1001')).to.include({ status: 'succeeded', attempts: 1 });
  });

  it('two asks at once with one key: one sends, the other is told the write is under way', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const write = messageWrite('order-1002', 'Your order 1002 has shipped.', {
      send: async () => {
        await gate;
        return sendMessage('Your order 1002 has shipped.');
      },
    });
    const first = writeOnce(app.services.db, write);
    await until(async () => (await ledgerRow('order-1002')) !== undefined);
    const second = await writeOnce(app.services.db, write).catch((error: Error) => error);
    expect(second).to.be.instanceOf(WriteInProgressError);
    release();
    expect((await first).how).to.equal('sent');
    expect(await onPlatform('Your order 1002 has shipped.')).to.have.length(1);
  });

  it('refuses the key for another request (422) and sends nothing', async () => {
    await writeOnce(app.services.db, messageWrite('order-1003', 'Your order 1003 has shipped.'));
    const reused = await writeOnce(app.services.db, messageWrite('order-1003', 'Your order 1003 is late.')).catch((error: Error) => error);
    expect(reused).to.be.instanceOf(WriteKeyReusedError);
    expect(await onPlatform('Your order 1003 is late.')).to.deep.equal([]);
  });

  it('a platform refusal (a rate limit) sends and stores nothing; the same key then sends, once', async () => {
    await new BotchatPeople(() => app).failNext(bot.token, [{ kind: 'rate_limited', retryAfter: 3 }]);
    const write = messageWrite('order-1004', 'Your order 1004 has shipped.');
    const refused = await writeOnce(app.services.db, write).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(PlatformError).and.include({ kind: 'rate_limited' });
    expect(await ledgerRow('order-1004')).to.include({ status: 'failed' });
    expect(await inConversation('Your order 1004 has shipped.')).to.deep.equal([]);
    expect((await writeOnce(app.services.db, write)).how).to.equal('sent');
    expect(await onPlatform('Your order 1004 has shipped.')).to.have.length(1);
    expect(await ledgerRow('order-1004')).to.include({ status: 'succeeded', attempts: 2 });
  });

  it('the worker dies after the platform took the message: where the platform cannot be asked, the retry fails unknown and never sends again', async () => {
    const text = 'Your order 1005 has shipped.';
    const dying = messageWrite('order-1005', text, {
      send: async () => {
        await sendMessage(text);
        return new Promise<Published>(() => {});
      },
    });
    void writeOnce(app.services.db, dying, 1);
    await until(async () => (await onPlatform(text)).length === 1);
    const retried = await retryOnceLeaseRunsOut(messageWrite('order-1005', text));
    expect(retried).to.be.instanceOf(WriteOutcomeUnknownError).and.include({ status: 502, code: 'platform_error' });
    expect(await writeOnce(app.services.db, messageWrite('order-1005', text)).catch((error: Error) => error)).to.be.instanceOf(
      WriteOutcomeUnknownError,
    );
    expect(await onPlatform(text)).to.have.length(1);
    expect(await inConversation(text)).to.deep.equal([]);
    expect(await ledgerRow('order-1005')).to.include({ status: 'unknown' });
  });

  it('the worker dies after the platform took the message: where the platform can be asked, the retry records its answer and sends nothing', async () => {
    const text = 'Your order 1006 has shipped.';
    const dying = messageWrite('order-1006', text, {
      send: async () => {
        await sendMessage(text);
        return new Promise<Published>(() => {});
      },
    });
    void writeOnce(app.services.db, dying, 1);
    await until(async () => (await onPlatform(text)).length === 1);
    const retried = await retryOnceLeaseRunsOut(messageWrite('order-1006', text, { reconcile: askPlatform(text) }));
    const [sent] = await onPlatform(text);
    expect(retried).to.deep.equal({ result: { platformPostId: `${sent!.chatId}:${sent!.messageId}`, url: null }, how: 'reconciled' });
    expect(await onPlatform(text)).to.have.length(1);
    expect(await inConversation(text)).to.deep.equal([`out:${text}`]);
  });

  it('the worker dies before the call: the retry asks the platform, finds nothing, and sends once', async () => {
    const text = 'Your order 1007 has shipped.';
    void writeOnce(app.services.db, messageWrite('order-1007', text, { send: () => new Promise<Published>(() => {}) }), 1);
    await until(async () => (await ledgerRow('order-1007'))?.status === 'started');
    const retried = await retryOnceLeaseRunsOut(messageWrite('order-1007', text, { reconcile: askPlatform(text) }));
    expect(retried).to.include({ how: 'sent' });
    expect(await onPlatform(text)).to.have.length(1);
    expect(await ledgerRow('order-1007')).to.include({ status: 'succeeded', attempts: 2 });
  });

  it("recording the answer fails: the caller's records roll back with the write, and the retry reconciles at once instead of sending", async () => {
    const text = 'Your order 1008 has shipped.';
    const refused = await writeOnce(
      app.services.db,
      messageWrite('order-1008', text, {
        reconcile: askPlatform(text),
        store: (trx, sent) => storeSent(trx, text, sent, 'sideways'),
      }),
    ).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error).and.not.instanceOf(PlatformError);
    expect(await ledgerRow('order-1008')).to.include({ status: 'started' });
    expect(await inConversation(text)).to.deep.equal([]);
    const retried = await writeOnce(app.services.db, messageWrite('order-1008', text, { reconcile: askPlatform(text) }));
    expect(retried.how).to.equal('reconciled');
    expect(await onPlatform(text)).to.have.length(1);
    expect(await inConversation(text)).to.deep.equal([`out:${text}`]);
  });
  describe('writes asked for at once', () => {
    /** A store shared by the writes below, which says how many results each of its calls kept. */
    function sharedMessages() {
      const calls: number[] = [];
      const store = new SharedStore<{ text: string; sent: Published; direction?: string }>(async (db, items, settlement) => {
        calls.push(items.length);
        await db.transaction(async (trx) => {
          for (const { text, sent, direction } of items) await storeSent(trx, text, sent, direction);
          if (settlement) await applySettlement(trx, settlement);
        });
      });
      return { calls, store };
    }

    /** Writes of `texts` whose sends finish together: each waits, once sent, until all have been sent. */
    async function sendTogether(texts: string[], keep: (text: string) => Pick<PlatformWrite<Published>, 'store' | 'together'>) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let sent = 0;
      const writes = texts.map((text, index) =>
        writeOnce(
          app.services.db,
          messageWrite(`batch-${index}-${text.length}`, text, {
            send: async () => {
              const done = await sendMessage(text);
              sent += 1;
              await gate;
              return done;
            },
            ...keep(text),
          }),
        ).catch((error: Error) => error),
      );
      await until(async () => sent === texts.length);
      release();
      return Promise.all(writes);
    }

    it('are stored together: each sent once, kept and settled, the first store alone and the others in one call', async () => {
      const { calls, store } = sharedMessages();
      const texts = [1, 2, 3, 4, 5].map((n) => `Your order 20${n} has shipped.`);
      const outcomes = await sendTogether(texts, (text) => store.keeping((sent: Published) => ({ text, sent })));
      expect(outcomes.map((outcome) => (outcome instanceof Error ? outcome.message : outcome.how))).to.deep.equal(texts.map(() => 'sent'));
      expect(calls).to.deep.equal([1, 4]);
      for (const [index, text] of texts.entries()) {
        expect(await onPlatform(text)).to.have.length(1);
        expect(await inConversation(text)).to.deep.equal([`out:${text}`]);
        expect(await ledgerRow(`batch-${index}-${text.length}`)).to.include({ status: 'succeeded', attempts: 1 });
      }
    });

    it('two with one key started in the same statement: one sends, the other replays it or is told it is under way', async () => {
      // The first write goes alone; the two that arrive meanwhile are started together.
      const first = writeOnce(app.services.db, messageWrite('order-1010', 'Your order 1010 has shipped.'));
      const twice = messageWrite('order-1011', 'Your order 1011 has shipped.');
      const outcomes = await Promise.all(
        [writeOnce(app.services.db, twice), writeOnce(app.services.db, twice)].map((ask) => ask.catch((error: Error) => error)),
      );
      expect((await first).how).to.equal('sent');
      const told = outcomes.map((outcome) =>
        outcome instanceof WriteInProgressError ? 'under way' : outcome instanceof Error ? outcome.message : outcome.how,
      );
      expect(told).to.include('sent');
      expect(told.filter((one) => one !== 'sent')).to.satisfy(
        (others: string[]) => others.length === 1 && ['replayed', 'under way'].includes(others[0]!),
      );
      expect(await onPlatform('Your order 1011 has shipped.')).to.have.length(1);
    });

    it('one store that cannot be written fails only its own write; the others are kept', async () => {
      const { store } = sharedMessages();
      const texts = ['Order 301 shipped.', 'Order 302 shipped.', 'Order 303 shipped.', 'Order 304 shipped.'];
      const outcomes = await sendTogether(texts, (text) =>
        store.keeping((sent: Published) => ({ text, sent, direction: text.includes('303') ? 'sideways' : 'out' })),
      );
      expect(outcomes.map((outcome) => (outcome instanceof Error ? 'failed' : outcome.how))).to.deep.equal([
        'sent',
        'sent',
        'failed',
        'sent',
      ]);
      for (const [index, text] of texts.entries()) {
        const failed = text.includes('303');
        expect(await inConversation(text)).to.deep.equal(failed ? [] : [`out:${text}`]);
        // The failed one's answer is lost to our records: left started, for the next attempt to reconcile.
        expect(await ledgerRow(`batch-${index}-${text.length}`)).to.include({ status: failed ? 'started' : 'succeeded' });
      }
    });
  });
});
