import { randomBytes } from 'node:crypto';
import type { MessageViolation, OutgoingMessage, OutgoingPart, SessionMessaging } from '../capabilities/messaging.js';

/** The chat app's limit on a text message (and a caption). */
const MAX_TEXT = 65_536;

/** Sending from a paired number: one message per file (the text as the first one's caption), or the text alone. */
export const qrchatMessaging: SessionMessaging = {
  validate(message: OutgoingMessage): MessageViolation[] {
    const violations: MessageViolation[] = [];
    if (message.recipient.kind === 'comment')
      violations.push({ path: 'commentId', message: 'qrchat accounts have no comments to answer privately.' });
    else if (!/^\d{6,15}$/.test(message.recipient.id.replace(/^\+/, '')))
      violations.push({ path: 'recipientId', message: 'A qrchat recipient is a phone number in E.164 form.' });
    if (message.tag) violations.push({ path: 'messagingTag', message: 'Message tags are Messenger only.' });
    if ((message.text?.length ?? 0) > MAX_TEXT) violations.push({ path: 'text', message: `A text has at most ${MAX_TEXT} characters.` });
    return violations;
  },

  parts(message: OutgoingMessage): OutgoingPart[] {
    if (message.media.length === 0) return [{ text: message.text, media: [] }];
    return message.media.map((file, index) => ({ text: index === 0 ? message.text : null, media: [file] }));
  },

  /** As the linked-device clients make them: `3EB0` and 16 hex digits. */
  newMessageId: () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
};
