import { BaseModel } from '../../db/base-model.js';

export class ProfileRow extends BaseModel {
  static override tableName = 'profiles';
  id!: string;
  ownerId!: string;
  name!: string;
  description!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
