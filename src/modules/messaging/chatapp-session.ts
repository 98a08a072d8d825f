import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { CapabilityUnsupportedError } from '../accounts/errors.js';
import type { AccountRow } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { mediaFiles } from '../media/read.js';
import { AccountUnpairedError, MediaNotFoundError } from './errors.js';
import type { Message } from './messages.js';
import { storedMessages } from './stored.js';
import { type SessionSend, sendFromSession } from './qrchat-outbox.js';

type ChatappMessageSend = components['schemas']['ChatappMessageSend'];
type MediaMember = components['schemas']['ChatappMediaMessage'];

/** The file of a media member: an upload the caller may use (`mediaId`) or a public `link`. */
export async function mediaOf(
  services: Services,
  principal: Principal,
  member: string,
  media: Pick<MediaMember, 'mediaId' | 'link'>,
): Promise<{ url: string; file: PublishMedia | null }> {
  if (media.link) return { url: media.link, file: null };
  if (!media.mediaId) throw new ValidationFailedError([{ path: `body/${member}`, code: 'media', message: 'Give mediaId or link.' }]);
  const file = (await mediaFiles(services.db, services.config.publicUrl, principal, [media.mediaId])).get(media.mediaId);
  if (!file) throw new MediaNotFoundError([media.mediaId]);
  return { url: file.url, file };
}

/**
 * A chat app message from an account whose messages leave through a live session (qrchat): the kinds a linked
 * device sends (text, image, document, audio, video, reaction), queued for the session's holder. Templates and
 * reply buttons belong to the cloud API for businesses: refused, saying so. A linked device has no 24-hour window.
 */
export async function sendChatappFromSession(
  services: Services,
  principal: Principal,
  found: AccountRow,
  to: string,
  body: ChatappMessageSend,
  ledgerKey: string,
): Promise<Message> {
  if (body.type === 'template' || body.type === 'interactive' || body.replyToMessageId) {
    const what = body.replyToMessageId ? 'quoted replies (replyToMessageId)' : `${body.type} messages`;
    throw new CapabilityUnsupportedError(
      `${found.platform} accounts cannot send ${what}: a linked device sends text, image, document, audio, video and reaction; ` +
        'templates and reply buttons are features of the cloud API (a chatapp-cloud account).',
    );
  }
  if (found.status !== 'connected' && found.platformAccountId) throw new AccountUnpairedError(found.status);
  return withConnectedAccount(services, principal, found, 'sessionMessaging', async (adapter, _account, row) => {
    const send = await sessionSendOf(services, principal, to, body);
    const ids = await sendFromSession(services, row, adapter.sessionMessaging.newMessageId, [send], {
      key: ledgerKey,
      kind: 'chatapp.send',
    });
    const [message] = await storedMessages(services.db, row, ids);
    return message!;
  });
}

async function sessionSendOf(services: Services, principal: Principal, to: string, body: ChatappMessageSend): Promise<SessionSend> {
  const base = { to, media: null, reactTo: null };
  switch (body.type) {
    case 'text':
      return { message: { ...base, kind: 'text', text: body.text!.body }, stored: { kind: 'text', text: body.text!.body, media: null } };
    case 'reaction': {
      const { messageId, emoji } = body.reaction!;
      return {
        message: { ...base, kind: 'reaction', text: emoji, reactTo: messageId },
        stored: { kind: 'other', text: emoji, media: null },
      };
    }
    default: {
      const type = body.type as 'image' | 'document' | 'audio' | 'video';
      const member = body[type]!;
      const { url, file } = await mediaOf(services, principal, type, member);
      const caption = type === 'audio' ? null : (member.caption ?? null);
      const fileName = type === 'document' ? (member.filename ?? null) : null;
      return {
        message: { ...base, kind: type, text: caption, media: { url, mimeType: file?.mimeType ?? null, fileName } },
        stored: { kind: type, text: caption, media: file },
      };
    }
  }
}
