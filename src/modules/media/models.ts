import { BaseModel } from '../../db/base-model.js';
import type { MediaKind } from './settings.js';

export class MediaRow extends BaseModel {
  static override tableName = 'media';
  id!: string;
  ownerId!: string;
  profileId!: string | null;
  kind!: MediaKind;
  mimeType!: string;
  /** A bigint column: PostgreSQL hands it back as a string. */
  size!: number | string;
  width!: number | null;
  height!: number | null;
  durationMs!: number | null;
  codec!: string | null;
  frameRate!: number | null;
  sha256!: string;
  filename!: string | null;
  storageKey!: string;
  token!: string;
  createdAt!: Date;
}
