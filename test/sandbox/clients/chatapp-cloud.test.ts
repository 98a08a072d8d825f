import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { ChatappCloudMessaging } from '../../../src/platforms/chatapp-cloud/messaging.js';
import { sandboxForFile } from './sandbox.js';

interface Business {
  wabaId: string;
  phoneNumberId: string;
  accessToken: string;
}

/**
 * WhatsApp's Cloud API has no official Node client of Meta's (facebook-nodejs-business-sdk covers neither the
 * number's messages nor its media), so the calls are plain HTTP as Meta documents them, then through our adapter.
 */
describe('sandbox WhatsApp Cloud API — over plain HTTP as Meta documents it, and through our adapter', () => {
  const sandbox = sandboxForFile();
  const api = (path: string) => `${sandbox.url()}/chatapp-cloud/v25.0/${path}`;
  const people = async <T>(path: string, body: Record<string, unknown>): Promise<T> => {
    const answer = await fetch(`${sandbox.url()}/_sandbox/chatapp-cloud/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await answer.json()) as T;
  };
  const call = async (business: Business, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) => {
    const answer = await fetch(api(path), {
      method,
      headers: { Authorization: `Bearer ${business.accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as Record<string, any> };
  };

  /** A business with a registered number whose webhooks reach the sandbox's app. */
  async function business(): Promise<Business> {
    const made = await people<Business>('numbers', { verifiedName: 'Acme Coffee' });
    expect((await call(made, 'POST', `${made.wabaId}/subscribed_apps`, {})).status).to.equal(200);
    return made;
  }
  /** A person writes to the number: the id of their message, as the webhook carries it. */
  async function personWrites(to: Business, content?: Record<string, unknown>): Promise<string> {
    const sent = await people<{ payload: { entry: Array<{ changes: Array<{ value: { messages: Array<{ id: string }> } }> }> } }>(
      'messages',
      { phoneNumberId: to.phoneNumberId, from: '+49 151 12345678', ...(content ? { content } : {}) },
    );
    return sent.payload.entry[0]!.changes[0]!.value.messages[0]!.id;
  }

  it('marks a message the person sent as read ({success: true}), and refuses an id the number never received', async () => {
    const number = await business();
    const wamid = await personWrites(number);
    const read = await call(number, 'POST', `${number.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
    });
    expect(read).to.deep.include({ status: 200, body: { success: true } });
    const unknown = await call(number, 'POST', `${number.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: 'wamid.nothing',
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.code).to.equal(100);
  });

  it('answers a template send with message_status "accepted", and a text send without one', async () => {
    const number = await business();
    const template = await call(number, 'POST', `${number.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      to: '4915112345678',
      type: 'template',
      template: { name: 'hello_world', language: { code: 'en_US' } },
    });
    expect(template.status).to.equal(200);
    expect(template.body.messages[0]).to.have.keys('id', 'message_status');
    expect(template.body.messages[0].message_status).to.equal('accepted');
    await personWrites(number);
    const text = await call(number, 'POST', `${number.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      to: '4915112345678',
      type: 'text',
      text: { body: 'Thanks!' },
    });
    expect(text.body.messages[0]).to.have.keys('id');
  });

  it("reads a received file's URL with its sha256, which the bytes from the media host match; our adapter downloads it", async () => {
    const number = await business();
    const { id } = await people<{ id: string }>('media', { phoneNumberId: number.phoneNumberId, mimeType: 'image/jpeg' });
    const media = await call(number, 'GET', id);
    expect(media.status).to.equal(200);
    expect(media.body).to.include({ messaging_product: 'whatsapp', mime_type: 'image/jpeg', id });
    const bytes = Buffer.from(
      await (await fetch(media.body.url, { headers: { Authorization: `Bearer ${number.accessToken}` } })).arrayBuffer(),
    );
    expect(media.body.sha256).to.equal(createHash('sha256').update(bytes).digest('hex'));
    expect(media.body.file_size).to.equal(bytes.length);
    const account = { platformAccountId: number.phoneNumberId, credentials: { accessToken: number.accessToken } };
    const downloaded = await new ChatappCloudMessaging(api('').replace(/\/$/, '')).download(account, id);
    expect(downloaded).to.deep.equal({ bytes, mimeType: 'image/jpeg' });
  });

  it("fetches a media link from this machine's address, and not in strict mode (131053), as Meta could not reach it", async () => {
    const number = await business();
    await personWrites(number);
    const image = { messaging_product: 'whatsapp', to: '4915112345678', type: 'image', image: { link: sandbox.photoUrl() } };
    expect((await call(number, 'POST', `${number.phoneNumberId}/messages`, image)).status).to.equal(200);
    await sandbox.strictly('chatapp-cloud', async () => {
      const refused = await call(number, 'POST', `${number.phoneNumberId}/messages`, image);
      expect([refused.status, refused.body.error.code]).to.deep.equal([400, 131053]);
    });
  });

  it('answers a token that does not work with HTTP 401 and code 190, and the media host refuses it with 401', async () => {
    const number = await business();
    const { id } = await people<{ id: string }>('media', { phoneNumberId: number.phoneNumberId });
    const { url } = (await call(number, 'GET', id)).body as { url: string };
    const bad = await call({ ...number, accessToken: 'not-a-token' }, 'GET', number.phoneNumberId);
    expect(bad.status).to.equal(401);
    expect(bad.body.error).to.include({ code: 190, type: 'OAuthException' });
    await people('revoke', { accessToken: number.accessToken });
    const revoked = await call(number, 'GET', number.phoneNumberId);
    expect(revoked.status).to.equal(401);
    expect(revoked.body.error).to.include({ code: 190, error_subcode: 460 });
    expect((await fetch(url, { headers: { Authorization: `Bearer ${number.accessToken}` } })).status).to.equal(401);
  });
});
