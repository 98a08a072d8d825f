import { BaseModel } from '../../db/base-model.js';

export class ApiKeyRow extends BaseModel {
  static override tableName = 'api_keys';
  // profile_ids is a text[] column: pg maps it to a JS array; Objection must not JSON-encode it.
  static override jsonAttributes: string[] = [];
  id!: string;
  ownerId!: string;
  name!: string;
  prefix!: string;
  secretHash!: string;
  profileIds!: string[] | null;
  expiresAt!: Date | null;
  lastUsedAt!: Date | null;
  createdAt!: Date;
  revokedAt!: Date | null;
}
