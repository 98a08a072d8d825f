import { fileTypeFromFile } from 'file-type';
import type { MediaKind } from './settings.js';
import { MediaRejectedError } from './errors.js';

/** A type the service accepts, as detected from the bytes. */
export interface MediaType {
  kind: MediaKind;
  /** The type stored and served (the registered name where file-type reports a vendor one). */
  mimeType: string;
  /** What a person calls it, for problems. */
  label: string;
  /** The ffprobe demuxer that reads it, forced so that a file is never read as another format; none: not probed by ffprobe. */
  demuxer?: 'mov' | 'matroska' | 'mp3' | 'wav' | 'gif';
}

/** The contract's list (MediaUpload.file), keyed by file-type's MIME type. */
const ALLOWED: Record<string, MediaType> = {
  'image/jpeg': { kind: 'image', mimeType: 'image/jpeg', label: 'JPEG' },
  'image/png': { kind: 'image', mimeType: 'image/png', label: 'PNG' },
  // An animated PNG is a PNG to every reader that does not know APNG.
  'image/apng': { kind: 'image', mimeType: 'image/png', label: 'PNG' },
  'image/webp': { kind: 'image', mimeType: 'image/webp', label: 'WebP' },
  'image/heic': { kind: 'image', mimeType: 'image/heic', label: 'HEIC' },
  'image/heif': { kind: 'image', mimeType: 'image/heif', label: 'HEIC' },
  'image/gif': { kind: 'gif', mimeType: 'image/gif', label: 'GIF', demuxer: 'gif' },
  'video/mp4': { kind: 'video', mimeType: 'video/mp4', label: 'MP4', demuxer: 'mov' },
  'video/x-m4v': { kind: 'video', mimeType: 'video/mp4', label: 'MP4', demuxer: 'mov' },
  'video/quicktime': { kind: 'video', mimeType: 'video/quicktime', label: 'QuickTime', demuxer: 'mov' },
  'video/webm': { kind: 'video', mimeType: 'video/webm', label: 'WebM', demuxer: 'matroska' },
  'audio/mpeg': { kind: 'audio', mimeType: 'audio/mpeg', label: 'MP3', demuxer: 'mp3' },
  'audio/x-m4a': { kind: 'audio', mimeType: 'audio/mp4', label: 'M4A', demuxer: 'mov' },
  'audio/mp4': { kind: 'audio', mimeType: 'audio/mp4', label: 'M4A', demuxer: 'mov' },
  'audio/wav': { kind: 'audio', mimeType: 'audio/wav', label: 'WAV', demuxer: 'wav' },
  'application/pdf': { kind: 'document', mimeType: 'application/pdf', label: 'PDF' },
};

/** An MP4 container with sound only is M4A, whatever its brand says. */
export const MP4_AUDIO: MediaType = ALLOWED['audio/mp4']!;

export const ALLOWED_TYPES_TEXT =
  'JPEG, PNG, WebP, HEIC and GIF images; MP4, QuickTime and WebM videos; MP3, M4A and WAV audio; PDF documents';

/** The file's real type from its first bytes (the name and the declared type are never looked at). */
export async function detectType(path: string): Promise<MediaType> {
  const detected = await fileTypeFromFile(path);
  if (!detected) {
    throw new MediaRejectedError(
      'type_not_allowed',
      `The file's type could not be recognised from its bytes; allowed are ${ALLOWED_TYPES_TEXT}.`,
    );
  }
  const type = ALLOWED[detected.mime];
  if (!type) {
    throw new MediaRejectedError(
      'type_not_allowed',
      `The file is ${detected.ext.toUpperCase()} (${detected.mime}), which is not allowed; allowed are ${ALLOWED_TYPES_TEXT}.`,
    );
  }
  return type;
}
