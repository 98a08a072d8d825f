import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectNumber } from '../../support/sandbox/chatapp-cloud.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { quiescent } from '../../support/wait.js';

describeApi('receiving media messages', (t) => {
  const { botchat, chatappCloud, messenger } = t.sandbox;
  const hook = () => t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/h`, events: ['message.received'] } });

  /** The account's stored messages, oldest first. */
  async function messagesOf(accountId: string) {
    const [conversation] = (await t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key })).body.data;
    const page = await t.app.api.get(`/accounts/${accountId}/conversations/${conversation.id}?limit=50`, { token: t.owner.key });
    return page.body.messages.data.reverse();
  }
  const download = (url: string) => fetch(url, { headers: { Authorization: `Bearer ${t.owner.key}` } });

  it('botchat: photo, voice, video, sticker, document and place become message.received (caption or ""), files downloadable', async () => {
    await hook();
    const bot = await connectBot(t.app, t.owner);
    await botchat.sendMedia(bot.token, 'photo', 'Our terrace?');
    for (const kind of ['voice', 'video', 'sticker', 'document']) await botchat.sendMedia(bot.token, kind);
    await botchat.sendLocation(bot.token, 52.52, 13.405);
    const deliveries = await t.inbox.waitFor(6);
    const data = deliveries.map((d) => JSON.parse(d.rawBody).data).sort((a, b) => a.msgId.localeCompare(b.msgId));
    expect(data.map((d) => d.text)).to.deep.equal(['Our terrace?', '', '', '', '', '']);
    for (const d of data) expect(Object.keys(d).sort()).to.deep.equal(['accountId', 'from', 'msgId', 'platform', 'text']);

    const messages = await messagesOf(bot.accountId);
    expect(messages.map((m: { type: string }) => m.type)).to.deep.equal(['image', 'audio', 'video', 'sticker', 'document', 'location']);
    const [photo] = messages[0].attachments;
    expect(photo).to.include({ type: 'image', mediaId: null });
    const file = await download(photo.url);
    expect(file.status).to.equal(200);
    expect(file.headers.get('content-type')).to.match(/^image\/jpeg/);
    expect(Buffer.from(await file.arrayBuffer()).toString()).to.equal('sandbox-photo');
    expect(messages[4].attachments[0]).to.include({ fileName: 'menu.pdf', mimeType: 'application/pdf' });
    expect(messages[5].attachments[0].url).to.match(/openstreetmap\.org\/\?mlat=52\.52&mlon=13\.405/);
    expect((await download(photo.url.replace(/\/0$/, '/3'))).status, 'no such attachment').to.equal(404);
  });

  it('chatapp-cloud: image with caption, voice note and location; the file comes through the service', async () => {
    const { accountId, number } = await connectNumber(t.app, t.owner);
    const image = await chatappCloud.newMedia(number.phoneNumberId, 'image/jpeg');
    const voice = await chatappCloud.newMedia(number.phoneNumberId, 'audio/ogg');
    await chatappCloud.sendContent(number.phoneNumberId, {
      type: 'image',
      image: { id: image, mime_type: 'image/jpeg', caption: 'This one' },
    });
    await chatappCloud.sendContent(number.phoneNumberId, { type: 'audio', audio: { id: voice, mime_type: 'audio/ogg', voice: true } });
    await chatappCloud.sendContent(number.phoneNumberId, { type: 'location', location: { latitude: 48.1, longitude: 11.6, name: 'Cafe' } });
    await quiescent(t.app);
    const messages = await messagesOf(accountId);
    expect(messages.map((m: { type: string; text: string }) => [m.type, m.text])).to.deep.equal([
      ['image', 'This one'],
      ['audio', ''],
      ['location', ''],
    ]);
    const file = await download(messages[0].attachments[0].url);
    expect(file.status, await file.clone().text()).to.equal(200);
    expect(Buffer.from(await file.arrayBuffer()).toString()).to.equal('sandbox image/jpeg');
  });

  it('social_network: a Messenger photo keeps its CDN URL, a sticker and a place too', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const url = 'https://cdn.social.example/att/photo.jpg';
    await messenger.sendAttachments(page.pageId, '777', [{ type: 'image', payload: { url } }], 'Look');
    await messenger.sendAttachments(page.pageId, '777', [{ type: 'image', payload: { url, sticker_id: 369239263222822 } }]);
    await messenger.sendAttachments(page.pageId, '777', [{ type: 'location', payload: { coordinates: { lat: 1.5, long: 2.5 } } }]);
    await quiescent(t.app);
    const messages = await messagesOf(page.accountId);
    expect(messages.map((m: { type: string; text: string }) => [m.type, m.text])).to.deep.equal([
      ['image', 'Look'],
      ['sticker', ''],
      ['location', ''],
    ]);
    expect(messages[0].attachments[0]).to.include({ type: 'image', url });
  });
});
