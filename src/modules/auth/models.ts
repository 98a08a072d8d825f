import { BaseModel } from '../../db/base-model.js';

export class OwnerRow extends BaseModel {
  static override tableName = 'owners';
  id!: string;
  email!: string;
  passwordHash!: string;
  name!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class SessionRow extends BaseModel {
  static override tableName = 'sessions';
  id!: string;
  ownerId!: string;
  tokenHash!: string;
  createdAt!: Date;
  expiresAt!: Date;
  revokedAt!: Date | null;
}
