import type { components } from '../../../generated/api.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

export type LeadFormQuestion = components['schemas']['LeadFormQuestion'];
export type LeadFormCreate = components['schemas']['LeadFormCreate'];
export type LeadFormStatus = components['schemas']['LeadForm']['status'];
export type ThankYouPage = components['schemas']['LeadFormThankYouPage'];
export type ContextCard = components['schemas']['LeadFormContextCard'];

/** A lead form as a platform shows it, in the contract's words (without the account, which the caller knows). */
export interface PlatformLeadForm {
  id: string;
  name: string;
  status: LeadFormStatus;
  locale: string;
  questions: LeadFormQuestion[];
  privacyPolicy: { url: string; linkText: string | null };
  followUpActionUrl: string | null;
  thankYouPage: ThankYouPage | null;
  contextCard: ContextCard | null;
  leadsCount: number;
  createdAt: string;
}

/** A lead as a platform gives it when asked: the answers, where it came from, when it was sent. */
export interface PlatformLead {
  id: string;
  formId: string;
  adId: string | null;
  adsetId: string | null;
  campaignId: string | null;
  /** Where the person saw the form (`facebook`, `instagram`, `tiktok`), where the platform says. */
  sourcePlatform: string | null;
  isOrganic: boolean;
  fields: Record<string, string[]>;
  createdAt: Date;
}

/**
 * The platform refuses to give a lead though it announced it: the page's Leads Access Manager leaves the app out
 * (Meta), or the advertiser's lead access is off. Connecting again does not fix it, a page admin does: the lead is
 * kept, unretrieved, and tried again.
 */
export class LeadAccessRefused extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** The platform has no such form for the account (or shows it no more). */
export class LeadFormNotFoundAtPlatform extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/**
 * Lead forms (instant forms) and their leads. A page's (Meta) or an advertiser's (TikTok, whose `AdapterAccount`
 * is the ad account's): forms listed and read live, leads read one by one as the platform's webhooks announce
 * them, and by form for a backfill within the platform's 90 days.
 */
export interface Leads {
  /** The permissions reading leads needs, where the platform asks for any. */
  readonly readScopes: readonly string[];
  /** One page of the account's forms, newest first (`after`: the previous page's `next`). */
  forms(
    account: AdapterAccount,
    page: { limit: number; after: string | undefined; status: LeadFormStatus | undefined },
  ): Promise<{ forms: PlatformLeadForm[]; next: string | null }>;
  /** One form; LeadFormNotFoundAtPlatform when the account has none of that id. */
  form(account: AdapterAccount, formId: string): Promise<PlatformLeadForm>;
  /** One lead by the id a webhook announced; LeadAccessRefused when the platform will not give it. */
  lead(account: AdapterAccount, leadId: string, formId: string): Promise<PlatformLead>;
  /** One page of a form's leads created at `since` or later, newest first; absent where past leads are not listed. */
  formLeads?(
    account: AdapterAccount,
    formId: string,
    since: Date,
    after: string | undefined,
  ): Promise<{ leads: PlatformLead[]; next: string | null }>;
  /** The platform's own test lead on the form, which it announces by its webhook; its id. One per form at a time. */
  createTestLead(account: AdapterAccount, formId: string, fields: Record<string, string[]>): Promise<string>;
  /** Deletes the platform's test lead, so the form can have another. */
  deleteTestLead(account: AdapterAccount, leadId: string, formId: string): Promise<void>;
  /** Creates a form; absent where forms are made in the platform's own tools only. */
  createForm?(account: AdapterAccount, form: LeadFormCreate): Promise<PlatformLeadForm>;
  /** Archives or restores a form; absent where only the platform's own tools can. */
  setFormStatus?(account: AdapterAccount, formId: string, status: 'active' | 'archived'): Promise<PlatformLeadForm>;
}

/**
 * A lead a platform's webhook announced (Meta's page `leadgen`, TikTok's lead event): only its ids, which the
 * service stores at once and then reads the lead by. Platforms deliver it twice; the ids name it.
 */
export interface IncomingLead {
  kind: 'lead';
  /** The page's id (Meta) or the advertiser's (TikTok) at the platform. */
  platformAccountId: string;
  /** Whether `platformAccountId` is an advertiser's, whose connections are ad accounts. */
  advertiser: boolean;
  platformLeadId: string;
  formId: string;
  adId: string | null;
  adsetId: string | null;
  campaignId: string | null;
  /** When the person sent the form, where the notification says. */
  createdAt: Date | null;
}

declare module './webhooks.js' {
  interface IncomingEventKinds {
    lead: IncomingLead;
  }
}
