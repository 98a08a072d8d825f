import { expect } from 'chai';
import { Api, GrammyError, InputFile } from 'grammy';
import { DEMO_BOT_TOKEN } from '../../../src/sandbox/botchat/platform.js';
import { sandboxForFile } from './sandbox.js';

/** A bot of its own for a test, made at the platform by its owner. */
async function newBot(sandboxUrl: string): Promise<string> {
  const response = await fetch(`${sandboxUrl}/_sandbox/botchat/bots`, { method: 'POST' });
  return ((await response.json()) as { token: string }).token;
}

describe('sandbox bot API — through grammY (1.46.0)', () => {
  const sandbox = sandboxForFile();
  const api = (token = DEMO_BOT_TOKEN) => new Api(token, { apiRoot: `${sandbox.url()}/botchat` });
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => expect.fail('the call succeeded'),
      (error: unknown) => {
        expect(error).to.be.instanceOf(GrammyError);
        return error as GrammyError;
      },
    );

  it('answers getMe, and 401 for a token it does not know', async () => {
    expect(await api().getMe()).to.include({ is_bot: true, username: 'sandbox_demo_bot' });
    expect((await refusal(api('123:nope').getMe())).error_code).to.equal(401);
  });

  it('sends a message from the bot, with HTML that parses', async () => {
    const me = await api().getMe();
    const sent = await api().sendMessage(4242, '<b>Bold</b> and <a href="https://example.com">a link</a>', { parse_mode: 'HTML' });
    expect(sent.from).to.include({ id: me.id, is_bot: true, username: me.username });
    expect(sent.chat).to.include({ id: 4242, type: 'private' });
  });

  it("refuses HTML with an unclosed tag: 400 can't parse entities", async () => {
    const error = await refusal(api().sendMessage(4242, '<b>Bold', { parse_mode: 'HTML' }));
    expect(error.error_code).to.equal(400);
    expect(error.description).to.match(/^Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"/);
    const caption = await refusal(api().sendPhoto(4242, sandbox.photoUrl(), { caption: '<i>x</b>', parse_mode: 'HTML' }));
    expect(caption.description).to.match(/^Bad Request: can't parse entities/);
  });

  it('sends a photo by URL, by the file_id it was given, and uploaded', async () => {
    const byUrl = await api().sendPhoto(4242, sandbox.photoUrl(), { caption: 'by URL' });
    const fileId = byUrl.photo!.at(-1)!.file_id;
    const byId = await api().sendPhoto(4242, fileId);
    expect(byId.photo!.at(-1)!.file_unique_id).to.equal(byUrl.photo!.at(-1)!.file_unique_id);
    const photo = await (await fetch(sandbox.photoUrl())).arrayBuffer();
    const uploaded = await api().sendPhoto(4242, new InputFile(new Uint8Array(photo), 'photo.png'), { caption: 'uploaded' });
    expect(uploaded.photo).to.have.length.greaterThan(0);
    expect(uploaded.caption).to.equal('uploaded');
    expect((await refusal(api().sendPhoto(4242, 'AgACAgIAAxkBAAnotknown'))).description).to.equal(
      'Bad Request: wrong file identifier/HTTP URL specified',
    );
  });

  it('sends an album and deletes a message', async () => {
    const album = await api().sendMediaGroup(4242, [
      { type: 'photo', media: sandbox.photoUrl() },
      { type: 'photo', media: sandbox.photoUrl(), caption: 'two' },
    ]);
    expect(album).to.have.length(2);
    const groups = album.map((message) => (message as { media_group_id?: string }).media_group_id);
    expect(groups[0]).to.be.a('string').and.equal(groups[1]);
    expect(await api().deleteMessage(4242, album[0]!.message_id)).to.equal(true);
    expect((await refusal(api().deleteMessage(4242, album[0]!.message_id))).description).to.equal(
      'Bad Request: message to delete not found',
    );
  });

  it('sets a webhook as Telegram does: HTTPS only, on ports 443, 80, 88 or 8443', async () => {
    const bot = api(await newBot(sandbox.url()));
    expect((await refusal(bot.setWebhook('http://hooks.example.com/bot'))).description).to.equal(
      'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
    );
    expect((await refusal(bot.setWebhook('https://hooks.example.com:9000/bot'))).description).to.equal(
      'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443',
    );
    expect(await bot.setWebhook('https://hooks.example.com:8443/bot', { allowed_updates: ['message'], max_connections: 10 })).to.equal(
      true,
    );
    expect(await bot.getWebhookInfo()).to.deep.include({
      url: 'https://hooks.example.com:8443/bot',
      has_custom_certificate: false,
      pending_update_count: 0,
      allowed_updates: ['message'],
      max_connections: 10,
    });
  });

  it('answers getUpdates 409 while a webhook is set, and the updates once it is deleted', async () => {
    const bot = api(await newBot(sandbox.url()));
    await bot.setWebhook('https://hooks.example.com/bot');
    const conflict = await refusal(bot.getUpdates());
    expect(conflict.error_code).to.equal(409);
    expect(conflict.description).to.equal(
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
    expect(await bot.deleteWebhook()).to.equal(true);
    expect(await bot.getUpdates({ timeout: 0 })).to.deep.equal([]);
    expect((await bot.getWebhookInfo()).url).to.equal('');
  });

  it("takes this machine's URLs, and refuses them once strict as Telegram would", async () => {
    const bot = api(await newBot(sandbox.url()));
    const strict = (on: boolean) =>
      fetch(`${sandbox.url()}/_sandbox/botchat/strict`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ strict: on }),
      });
    expect(await bot.setWebhook('http://127.0.0.1:8080/webhooks/botchat')).to.equal(true);
    await strict(true);
    try {
      expect((await refusal(bot.setWebhook('http://127.0.0.1:8080/webhooks/botchat'))).description).to.equal(
        'Bad Request: bad webhook: 127.0.0.1 is not a public address (loopback)',
      );
      expect((await refusal(bot.setWebhook('https://socialgate.local/webhooks/botchat'))).description).to.match(
        /^Bad Request: bad webhook:/,
      );
      expect((await refusal(bot.sendPhoto(4242, sandbox.photoUrl()))).description).to.equal(
        'Bad Request: wrong file identifier/HTTP URL specified',
      );
    } finally {
      await strict(false);
    }
  });
});
