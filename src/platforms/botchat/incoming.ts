import { type IncomingAttachment, placeAttachment } from '../capabilities/webhooks.js';
import type { MessageKind } from '../capabilities/messaging.js';

interface BotFile {
  file_id: string;
  file_size?: number;
  mime_type?: string;
  file_name?: string;
}

/** The parts of a bot API message that carry content besides its text. */
export interface BotMessageContent {
  photo?: BotFile[];
  video?: BotFile;
  animation?: BotFile;
  voice?: BotFile;
  audio?: BotFile;
  video_note?: BotFile;
  document?: BotFile;
  sticker?: BotFile;
  location?: { latitude: number; longitude: number };
}

const file = (type: IncomingAttachment['type'], f: BotFile, mimeType: string | null = null): IncomingAttachment => ({
  type,
  url: null,
  ref: f.file_id,
  mimeType: f.mime_type ?? mimeType,
  fileName: f.file_name ?? null,
  size: f.file_size ?? null,
});

/**
 * What a message carries, by the bot API's members (https://core.telegram.org/bots/api#message): a photo (its
 * largest size), a video, animation or round video note, a voice note or audio file, a document, a sticker or a
 * place. Files are named by `file_id`, downloadable only with the bot's token.
 */
export function contentOf(message: BotMessageContent): { type: MessageKind; attachments: IncomingAttachment[] } | null {
  if (message.photo?.length) return { type: 'image', attachments: [file('image', message.photo[message.photo.length - 1]!, 'image/jpeg')] };
  const video = message.video ?? message.animation ?? message.video_note;
  if (video) return { type: 'video', attachments: [file('video', video, 'video/mp4')] };
  const audio = message.voice ?? message.audio;
  if (audio) return { type: 'audio', attachments: [file('audio', audio)] };
  if (message.document) return { type: 'document', attachments: [file('document', message.document)] };
  if (message.sticker) return { type: 'sticker', attachments: [file('sticker', message.sticker, 'image/webp')] };
  if (message.location) return { type: 'location', attachments: [placeAttachment(message.location.latitude, message.location.longitude)] };
  return null;
}
