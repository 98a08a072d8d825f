import type { components } from '../../../generated/api.js';
import { type FieldError, ValidationFailedError } from '../../lib/errors.js';
import { type Page, platformPage } from '../../lib/pagination.js';
import type { LeadFormCreate, PlatformLeadForm } from '../../platforms/capabilities/leads.js';
import type { Services } from '../../services.js';
import type { Connection } from '../accounts/models.js';
import type { Principal } from '../auth/principal.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { withLeads } from './access.js';

type LeadForm = components['schemas']['LeadForm'];

export function presentForm(row: Connection, form: PlatformLeadForm): LeadForm {
  const { id, ...rest } = form;
  return { formId: id, accountId: row.id, platform: row.platform as LeadForm['platform'], ...rest };
}

export function listForms(
  services: Services,
  principal: Principal,
  id: string,
  query: { limit?: number; cursor?: string; status?: LeadForm['status'] },
): Promise<Page<LeadForm>> {
  return withLeads(services, principal, id, (leads, account, row) =>
    platformPage(query, async ({ limit, after }) => {
      const page = await leads.forms(account, { limit, after, status: query.status });
      return { data: page.forms.map((form) => presentForm(row, form)), next: page.next };
    }),
  );
}

export function getForm(services: Services, principal: Principal, id: string, formId: string): Promise<LeadForm> {
  return withLeads(services, principal, id, async (leads, account, row) => presentForm(row, await leads.form(account, formId)));
}

/** What the contract cannot say of a new form: a CUSTOM question's key and label, keys unique, a button's target. */
function formProblems(form: LeadFormCreate): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  form.questions.forEach((question, i) => {
    const at = `body/questions/${i}`;
    if (question.type === 'CUSTOM') {
      if (!question.key) errors.push({ path: `${at}/key`, code: 'required', message: 'a CUSTOM question needs a key' });
      if (!question.label) errors.push({ path: `${at}/label`, code: 'required', message: 'a CUSTOM question needs a label' });
    } else if (question.label !== undefined || question.options !== undefined) {
      errors.push({
        path: at,
        code: 'not_allowed',
        message: `a ${question.type} question is worded by the platform: no label, no options`,
      });
    }
    const key = question.type === 'CUSTOM' ? question.key : question.type;
    if (key && seen.has(key)) errors.push({ path: at, code: 'unique', message: `the form asks ${key} twice` });
    if (key) seen.add(key);
  });
  const page = form.thankYouPage;
  if (page && (page.buttonType === 'VIEW_WEBSITE' || page.buttonType === 'DOWNLOAD') && !page.websiteUrl)
    errors.push({ path: 'body/thankYouPage/websiteUrl', code: 'required', message: `a ${page.buttonType} button needs a websiteUrl` });
  if (page?.buttonType === 'CALL_BUSINESS' && !page.phoneNumber)
    errors.push({ path: 'body/thankYouPage/phoneNumber', code: 'required', message: 'a CALL_BUSINESS button needs a phoneNumber' });
  if (page && form.followUpActionUrl)
    errors.push({ path: 'body/followUpActionUrl', code: 'oneOf', message: 'give thankYouPage or followUpActionUrl, not both' });
  return errors;
}

/**
 * Creates the form on the platform once per write key: a lost answer retried finds the form made (a page's form
 * names are unique), not a second one.
 */
export async function createForm(
  services: Services,
  principal: Principal,
  id: string,
  form: LeadFormCreate,
  key: string,
): Promise<LeadForm> {
  const errors = formProblems(form);
  if (errors.length > 0) throw new ValidationFailedError(errors);
  return withLeads(
    services,
    principal,
    id,
    async (leads, account, row) => {
      const written = await writeOnce(services.db, {
        ownerId: row.ownerId,
        accountId: row.id,
        key,
        kind: 'lead_form.create',
        request: form,
        send: () => leads.createForm!(account, form),
        reconcile: async () => {
          const { forms } = await leads.forms(account, { limit: 100, after: undefined, status: undefined });
          return forms.find((made) => made.name === form.name) ?? null;
        },
        store: async () => {},
      });
      return presentForm(row, written.result);
    },
    'createForm',
  );
}

export function setFormStatus(services: Services, principal: Principal, id: string, formId: string, status: 'active' | 'archived') {
  return withLeads(
    services,
    principal,
    id,
    async (leads, account, row) => presentForm(row, await leads.setFormStatus!(account, formId, status)),
    'setFormStatus',
  );
}
