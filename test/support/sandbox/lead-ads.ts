import type { TestApp } from '../app.js';
import { People } from './people.js';

/** A lead form as the sandbox's Graph shows it. */
export interface SandboxLeadForm {
  id: string;
  name: string;
  status: string;
  questions: Array<{ type: string; key: string; label?: string; options?: Array<{ key: string; value: string }> }>;
}

/** A lead as the Graph shows it, with the `leadgen` webhooks its submission sent. */
export interface SubmittedLead {
  lead: { id: string; form_id: string; created_time: string; field_data: Array<{ name: string; values: string[] }> };
  deliveries: Array<{ url: string; status: number }>;
}

/** Lead ads on the social network (pages' forms, people who send them) and TikTok's instant forms (advertisers'). */
export class LeadAdsPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** A form made in the platform's own tools, with any question types (a kind the service does not know). */
  newForm(pageId: string, form: Partial<SandboxLeadForm> = {}): Promise<SandboxLeadForm> {
    return this.post('lead-forms', { pageId, ...form });
  }

  /**
   * A person sends the form (from the ad `adId`, `daysAgo` back): the page's signed `leadgen` webhook goes out to
   * the subscribed apps (not for a lead in the past).
   */
  submit(
    formId: string,
    extra: { fields?: Record<string, string[]>; adId?: string; platform?: string; daysAgo?: number } = {},
  ): Promise<SubmittedLead> {
    return this.post('leads', { formId, ...extra });
  }

  /** The page's Leads Access Manager leaves the app out (`false`) or gives it access again. */
  async leadAccess(pageId: string, allowed: boolean): Promise<void> {
    await this.post('lead-access', { pageId, allowed });
  }

  /** The page's next lead's webhook is sent `times` more times. */
  async duplicateNextLead(pageId: string, times = 1): Promise<void> {
    await this.post('lead-duplicates', { pageId, times });
  }

  /** The page's forms and leads at the platform. */
  onPlatform(pageId: string): Promise<{ forms: SandboxLeadForm[]; leads: Array<{ id: string; test: boolean; form_id: string }> }> {
    return this.get('lead-forms', { pageId });
  }
}

/** TikTok's side: advertisers' instant forms and the people who send them. */
export class InstantFormPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'short_video_ads');
  }

  private get webhookUrl(): string {
    return `${this.app().services.config.publicUrl}/webhooks/short_video_ads`;
  }

  newForm(advertiserId: string, form: Record<string, unknown> = {}): Promise<{ page_id: string; title: string }> {
    return this.post('instant-forms', { advertiserId, ...form });
  }

  /** A person sends the form: the signed `lead.submitted` webhook goes to the service. */
  submit(
    formId: string,
    extra: { adId?: string; fields?: Record<string, string> } = {},
  ): Promise<{ lead: { lead_id: string }; webhookStatus: number }> {
    return this.post('instant-leads', { formId, webhookUrl: this.webhookUrl, ...extra });
  }

  /** The platform's mock lead announced by its lead subscription. */
  async announce(leadId: string): Promise<void> {
    await this.post('instant-leads/announce', { leadId, webhookUrl: this.webhookUrl });
  }

  async leadAccess(advertiserId: string, allowed: boolean): Promise<void> {
    await this.post('lead-access', { advertiserId, allowed });
  }
}
