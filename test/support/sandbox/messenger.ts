import type { SentMessage } from '../../../src/sandbox/social-network/parts/messenger.js';
import type { TestApp } from '../app.js';
import { People } from './people.js';

export type MessengerSent = SentMessage;

/** Messenger's side of the social network: the window, comments to answer privately, what pages sent, receipts. */
export class MessengerPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** The person sends the page attachments (`{type, payload}` as Messenger carries them), with an optional text. */
  sendAttachments(pageId: string, from: string, attachments: unknown[], text?: string): Promise<{ webhookStatus: number }> {
    return this.post('messenger/attachments', { pageId, from, attachments, ...(text ? { text } : {}) });
  }

  /** Time passes: the person's last message to the page is `hours` older. */
  async age(pageId: string, psid: string, hours: number): Promise<void> {
    await this.post('messenger/age', { pageId, psid, hours });
  }

  /** The person comments on one of the page's posts (`ageDays` ago): the comment's id. */
  async newComment(pageId: string, psid: string, ageDays = 0): Promise<string> {
    return (await this.post<{ commentId: string }>('messenger/comments', { pageId, psid, ageDays })).commentId;
  }

  /** The page's next message is stored, and the connection drops before the answer. */
  async loseNextAnswer(): Promise<void> {
    await this.post('messenger/lose-next');
  }

  async onPlatform(pageId: string): Promise<MessengerSent[]> {
    return (await this.get<{ messages: MessengerSent[] }>('messenger/sent', { pageId })).messages;
  }

  /** The person's app reports the page's messages delivered or read. */
  async receipt(pageId: string, psid: string, kind: 'delivery' | 'read'): Promise<void> {
    await this.post('messenger/receipts', { pageId, psid, kind });
  }
}
