import { BaseModel } from '../../db/base-model.js';

export class HookRow extends BaseModel {
  static override tableName = 'hooks';
  static override jsonAttributes: string[] = [];
  id!: string;
  ownerId!: string;
  url!: string;
  events!: string[];
  profileIds!: string[] | null;
  active!: boolean;
  disabledReason!: 'endpoint_gone' | 'failing_for_5_days' | null;
  description!: string | null;
  secretCiphertext!: string;
  previousSecretCiphertext!: string | null;
  previousSecretExpiresAt!: Date | null;
  lastTestAt!: Date | null;
  lastSuccessAt!: Date | null;
  failingSince!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

export class DeliveryRow extends BaseModel {
  static override tableName = 'deliveries';
  id!: string;
  hookId!: string;
  eventId!: string;
  ownerId!: string;
  event!: string;
  body!: string;
  status!: DeliveryStatus;
  attemptCount!: number;
  maxAttempts!: number;
  nextAttemptAt!: Date | null;
  lockedUntil!: Date | null;
  createdAt!: Date;
  deliveredAt!: Date | null;
}

export class DeliveryAttemptRow extends BaseModel {
  static override tableName = 'delivery_attempts';
  id!: string;
  deliveryId!: string;
  at!: Date;
  responseStatus!: number | null;
  durationMs!: number;
  errorClass!: string | null;
  responseSnippet!: string | null;
}
