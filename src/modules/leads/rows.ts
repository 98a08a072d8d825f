// The rows of the leads area's tables, as Knex reads them (columns in camelCase).

export type LeadStateName = 'new' | 'contacted' | 'qualified' | 'won' | 'lost' | 'spam';
export type RetrievalStatus = 'pending' | 'retrieved' | 'unretrieved';

/** A lead as the `leads` table keeps it: announced, read (or refused), and where it stands in the pipeline. */
export interface LeadRow {
  id: string;
  ownerId: string;
  profileId: string;
  /** A page's `acc_…`, or a TikTok ad account's `adacc_…`. */
  accountId: string;
  platform: string;
  platformLeadId: string;
  formId: string;
  formName: string | null;
  adId: string | null;
  adsetId: string | null;
  campaignId: string | null;
  sourcePlatform: string | null;
  fields: Record<string, string[]>;
  isOrganic: boolean;
  isTest: boolean;
  platformTest: boolean;
  createdAt: Date;
  receivedAt: Date;
  retrievalStatus: RetrievalStatus;
  retrievalReason: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
  state: LeadStateName;
  note: string | null;
  assignee: string | null;
  stateVersion: number;
  stateUpdatedBy: string | null;
  stateUpdatedAt: Date;
}

/** One change of a lead's state, note or assignee (`lead_state_changes`). */
export interface LeadStateChangeRow {
  id: string;
  leadId: string;
  version: number;
  state: LeadStateName;
  note: string | null;
  assignee: string | null;
  changedBy: string;
  changedAt: Date;
}

/** A backfill of a connection's last 90 days of leads (`lead_backfills`). */
export interface LeadBackfillRow {
  accountId: string;
  ownerId: string;
  since: Date;
  requestedAt: Date;
  dueAt: Date;
  doneAt: Date | null;
  lockedUntil: Date | null;
  attempts: number;
  lastError: string | null;
}
