import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { People } from './people.js';

export interface SandboxNumber {
  wabaId: string;
  phoneNumberId: string;
  accessToken: string;
  pin: string;
  displayPhoneNumber: string;
}

export interface NumberOptions {
  verifiedName?: string;
  registered?: boolean;
  appSecret?: string;
  scopes?: string[];
}

/** The people of the cloud chat API: businesses with their numbers and tokens, and the people who write to them. */
export class ChatappCloudPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'chatapp-cloud');
  }

  /** A business with a number of its own and a token for it (its own app's when `appSecret` is given). */
  newNumber(options: NumberOptions = {}): Promise<SandboxNumber> {
    return this.post('numbers', { verifiedName: 'Acme Coffee', ...options });
  }

  /** A person writes to the number: the webhook goes to every app subscribed to its business account. */
  sendMessage(phoneNumberId: string, text: string, from = '+49 151 12345678', name = 'Ana'): Promise<{ webhookStatus: number }> {
    return this.post('messages', { phoneNumberId, text, from, name });
  }

  /** A person who hides their number writes: the webhook names them by their business-scoped id only. */
  sendAsUserId(phoneNumberId: string, userId: string, text: string): Promise<{ webhookStatus: number }> {
    return this.post('messages', { phoneNumberId, userId, text, name: 'Kim' });
  }

  /** A person writes another kind of message: `type` and its member, as the webhook carries them. */
  sendContent(phoneNumberId: string, content: Record<string, unknown>, from = '+49 151 12345678'): Promise<{ webhookStatus: number }> {
    return this.post('messages', { phoneNumberId, from, name: 'Ana', content });
  }

  /** A file a person is about to send: its media id. */
  async newMedia(phoneNumberId: string, mimeType: string): Promise<string> {
    return (await this.post<{ id: string }>('media', { phoneNumberId, mimeType })).id;
  }

  /** Time passes: the person's last message to the number is `hours` older. */
  async age(phoneNumberId: string, from: string, hours: number): Promise<void> {
    await this.post('age', { phoneNumberId, from, hours });
  }

  /** The person's phone cannot receive: the platform answers 200, then a failed status (131026). */
  async makeUndeliverable(phoneNumberId: string, to: string): Promise<void> {
    await this.post('undeliverable', { phoneNumberId, to });
  }

  /** The recipient's phone reports a status of a message (any order, as often as asked). */
  async reportStatus(phoneNumberId: string, wamid: string, status: string, error?: { code: number; title: string }): Promise<void> {
    await this.post('statuses', { phoneNumberId, wamid, status, ...(error ? { error } : {}) });
  }

  /**
   * The number's next sends meet these faults: `throttled` (130429), `lost_answer` (sent, the answer never arrives),
   * `status_first` (the status webhook arrives before the send's answer).
   */
  async failNext(
    phoneNumberId: string,
    faults: Array<{ kind: 'throttled' | 'lost_answer' } | { kind: 'status_first'; status: string }>,
  ): Promise<void> {
    await this.post('faults', { phoneNumberId, faults });
  }

  /** Everything the number sent. */
  async onPlatform(phoneNumberId: string): Promise<Array<{ to: string; wamid: string; type: string; content: any }>> {
    return (await this.get<{ messages: Array<{ to: string; wamid: string; type: string; content: any }> }>('sent', { phoneNumberId }))
      .messages;
  }

  /** A template of the business account, in any review state. */
  async addTemplate(wabaId: string, template: Record<string, unknown>): Promise<void> {
    await this.post('templates', { wabaId, template });
  }

  /** The business revokes a token: every later call with it answers 190. */
  async revokeToken(accessToken: string): Promise<void> {
    await this.post('revoke', { accessToken });
  }
}

/** A new number at the sandbox, connected to the owner's profile: its account id and the number. */
export async function connectNumber(app: TestApp, owner: TestOwner): Promise<{ accountId: string; number: SandboxNumber }> {
  const number = await new ChatappCloudPeople(() => app).newNumber();
  const connected = await app.api.post('/connect/chatapp-cloud', {
    token: owner.key,
    body: { profileId: owner.profileId, phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken: number.accessToken },
  });
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { accountId: connected.body.id, number };
}
