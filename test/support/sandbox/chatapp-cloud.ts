import type { TestApp } from '../app.js';
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

  /** The business revokes a token: every later call with it answers 190. */
  async revokeToken(accessToken: string): Promise<void> {
    await this.post('revoke', { accessToken });
  }
}
