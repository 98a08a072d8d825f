import type {
  ContextCard,
  LeadFormCreate,
  LeadFormQuestion,
  LeadFormStatus,
  PlatformLeadForm,
  ThankYouPage,
} from '../capabilities/leads.js';

/** A form as the Graph answers `/{form-id}` and `/{page-id}/leadgen_forms`. */
export interface GraphLeadForm {
  id: string;
  name?: string;
  status?: string;
  locale?: string;
  questions?: Array<{ key?: string; label?: string; type?: string; options?: Array<{ key?: string; value?: string }> }>;
  privacy_policy?: { url?: string; link_text?: string };
  privacy_policy_url?: string;
  follow_up_action_url?: string;
  thank_you_page?: {
    title?: string;
    body?: string;
    button_type?: string;
    button_text?: string;
    website_url?: string;
    business_phone_number?: string;
  };
  context_card?: { title?: string; style?: string; content?: string[] };
  leads_count?: number;
  created_time?: string;
}

export const FORM_FIELDS =
  'id,name,status,locale,questions,privacy_policy,privacy_policy_url,follow_up_action_url,thank_you_page,context_card,leads_count,created_time';

type QuestionType = Exclude<LeadFormQuestion['type'], 'OTHER'>;

/** Our kinds the Graph names otherwise (its spelling of marital status included). */
const GRAPH_NAMES: Partial<Record<QuestionType, string>> = { DATE_OF_BIRTH: 'DOB', MARITAL_STATUS: 'MARITIAL_STATUS' };
const OUR_NAMES = new Map(Object.entries(GRAPH_NAMES).map(([ours, graph]) => [graph, ours as QuestionType]));
const KNOWN = new Set<string>([
  'EMAIL',
  'FULL_NAME',
  'FIRST_NAME',
  'LAST_NAME',
  'PHONE',
  'WORK_EMAIL',
  'WORK_PHONE_NUMBER',
  'COMPANY_NAME',
  'JOB_TITLE',
  'STREET_ADDRESS',
  'CITY',
  'STATE',
  'PROVINCE',
  'ZIP',
  'POST_CODE',
  'COUNTRY',
  'DATE_OF_BIRTH',
  'GENDER',
  'MARITAL_STATUS',
  'RELATIONSHIP_STATUS',
  'MILITARY_STATUS',
  'DATE_TIME',
  'STORE_LOOKUP',
  'CUSTOM',
]);
/** The answer's name in `field_data` where it is not the kind in lower case. */
const KEYS: Partial<Record<QuestionType, string>> = { PHONE: 'phone_number', ZIP: 'zip_code' };

/** The name of a pre-filled kind's answer (`email`, `phone_number`, `zip_code`, `date_of_birth`). */
export function keyOf(type: QuestionType): string {
  return KEYS[type] ?? type.toLowerCase();
}

const STATUSES: Record<string, LeadFormStatus> = { ACTIVE: 'active', ARCHIVED: 'archived', DRAFT: 'draft', DELETED: 'archived' };
const CARD_STYLES: Record<string, ContextCard['style']> = { PARAGRAPH_STYLE: 'PARAGRAPH', LIST_STYLE: 'LIST' };
const BUTTONS = new Set(['VIEW_WEBSITE', 'CALL_BUSINESS', 'DOWNLOAD', 'NONE']);

/** A question as the Graph gives it: a kind we do not know yet passes through as `OTHER`, named by the platform. */
function questionOf(question: NonNullable<GraphLeadForm['questions']>[number]): LeadFormQuestion {
  const platformType = (question.type ?? 'CUSTOM').slice(0, 64);
  const mapped = OUR_NAMES.get(platformType) ?? (KNOWN.has(platformType) ? (platformType as QuestionType) : null);
  return {
    type: mapped ?? 'OTHER',
    platformType,
    key: (question.key ?? (mapped ? keyOf(mapped) : platformType.toLowerCase())).slice(0, 64),
    label: mapped && mapped !== 'CUSTOM' ? null : (question.label?.slice(0, 120) ?? null),
    options: (question.options ?? []).slice(0, 20).map((option) => ({ key: option.key ?? '', value: option.value ?? '' })),
  };
}

function thankYouPageOf(page: GraphLeadForm['thank_you_page']): ThankYouPage | null {
  if (!page?.title) return null;
  return {
    title: page.title,
    body: page.body ?? '',
    buttonType: (BUTTONS.has(page.button_type ?? '') ? page.button_type : 'NONE') as ThankYouPage['buttonType'],
    buttonText: page.button_text ?? null,
    websiteUrl: page.website_url ?? null,
    phoneNumber: page.business_phone_number ?? null,
  };
}

export function presentForm(form: GraphLeadForm): PlatformLeadForm {
  const card = form.context_card;
  return {
    id: form.id,
    name: (form.name ?? form.id).slice(0, 200),
    status: STATUSES[form.status ?? ''] ?? 'active',
    locale: /^[a-z]{2}_[A-Z]{2}$/.test(form.locale ?? '') ? form.locale! : 'en_US',
    questions: (form.questions ?? []).slice(0, 15).map(questionOf),
    privacyPolicy: { url: form.privacy_policy?.url ?? form.privacy_policy_url ?? '', linkText: form.privacy_policy?.link_text ?? null },
    followUpActionUrl: form.follow_up_action_url ?? null,
    thankYouPage: thankYouPageOf(form.thank_you_page),
    contextCard: card?.title
      ? { title: card.title, style: CARD_STYLES[card.style ?? ''] ?? 'PARAGRAPH', content: card.content ?? [] }
      : null,
    leadsCount: form.leads_count ?? 0,
    createdAt: new Date(form.created_time ?? Date.now()).toISOString(),
  };
}

/** The Graph's parameters of a new form (`POST /{page-id}/leadgen_forms`), its objects JSON-encoded. */
export function graphFormParams(form: LeadFormCreate): Record<string, string> {
  const questions = form.questions.map((question) => {
    const type = GRAPH_NAMES[question.type] ?? question.type;
    if (question.type !== 'CUSTOM') return { type };
    return { type, key: question.key, label: question.label, ...(question.options ? { options: question.options } : {}) };
  });
  const thankYou = form.thankYouPage;
  const card = form.contextCard;
  return {
    name: form.name,
    locale: form.locale ?? 'en_US',
    questions: JSON.stringify(questions),
    privacy_policy: JSON.stringify({
      url: form.privacyPolicy.url,
      ...(form.privacyPolicy.linkText ? { link_text: form.privacyPolicy.linkText } : {}),
    }),
    ...(form.followUpActionUrl ? { follow_up_action_url: form.followUpActionUrl } : {}),
    ...(thankYou
      ? {
          thank_you_page: JSON.stringify({
            title: thankYou.title,
            body: thankYou.body,
            button_type: thankYou.buttonType,
            ...(thankYou.buttonText ? { button_text: thankYou.buttonText } : {}),
            ...(thankYou.websiteUrl ? { website_url: thankYou.websiteUrl } : {}),
            ...(thankYou.phoneNumber ? { business_phone_number: thankYou.phoneNumber } : {}),
          }),
        }
      : {}),
    ...(card
      ? { context_card: JSON.stringify({ title: card.title, style: `${card.style ?? 'PARAGRAPH'}_STYLE`, content: card.content }) }
      : {}),
  };
}
