import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { RateLimitedError, ValidationFailedError } from '../../lib/errors.js';
import type { PlatformLeadForm } from '../../platforms/capabilities/leads.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withLeads } from './access.js';
import type { LeadRow } from './rows.js';
import { announceLeads, emitReceived, leadColumns, presentLead } from './store.js';

type Lead = components['schemas']['Lead'];
type LeadTestCreate = components['schemas']['LeadTestCreate'];

/** Where a simulated person saw the form, by the form's platform. */
const SOURCES: Record<string, string> = { social_network: 'facebook', short_video_ads: 'tiktok' };

/** The form's questions must have every key `fields` names. */
function checkFields(form: PlatformLeadForm, fields: Record<string, string[]>): void {
  const keys = new Set(form.questions.map((question) => question.key));
  const unknown = Object.keys(fields).filter((key) => !keys.has(key));
  if (unknown.length > 0) {
    throw new ValidationFailedError(
      unknown.map((key) => ({ path: `body/fields/${key}`, code: 'unknown_key', message: `the form asks no question with the key ${key}` })),
    );
  }
}

/** At most `testLeadsPerMinute` test leads of a form in the last minute; 429 with the seconds until one more is allowed. */
async function assertUnderLimit(services: Services, accountId: string, formId: string): Promise<void> {
  const { testLeadsPerMinute } = services.config.leads;
  const recent = (await services
    .db('leads')
    .where({ accountId, formId, isTest: true })
    .where('receivedAt', '>', services.db.raw("now() - interval '1 minute'"))
    .orderBy('receivedAt', 'desc')
    .limit(testLeadsPerMinute)
    .select('receivedAt')) as Array<{ receivedAt: Date }>;
  if (recent.length < testLeadsPerMinute) return;
  const oldest = recent[recent.length - 1]!.receivedAt.getTime();
  throw new RateLimitedError(Math.max(1, Math.ceil((oldest + 60_000 - Date.now()) / 1000)));
}

/**
 * A test lead of the form. Simulated: made up from the form's questions (or the `fields` given), stored read and
 * emitted as `lead.received` in one transaction; the platform is only asked for the form. On the platform: its
 * own test lead, which it announces by its webhook: stored announced (pending) at once, read when it arrives.
 */
export function makeTestLead(services: Services, principal: Principal, id: string, formId: string, input: LeadTestCreate): Promise<Lead> {
  return withLeads(services, principal, id, async (leads, account, row) => {
    const form = await leads.form(account, formId);
    // faker's and libphonenumber's data load on the first test lead, not at every start.
    const { simulatedAdIds, simulatedAnswers } = await import('./simulator.js');
    const given = input.fields ?? {};
    checkFields(form, given);
    await assertUnderLimit(services, row.id, formId);
    if (input.mode === 'platform') {
      const platformLeadId = await leads.createTestLead(account, formId, { ...simulatedAnswers(form.questions, form.locale), ...given });
      const lead = { id: platformLeadId, formId, adId: null, adsetId: null, campaignId: null, createdAt: new Date() };
      const announced = { ...leadColumns(row, lead), formName: form.name, isTest: true, platformTest: true };
      const [added] = await announceLeads(services.db, [announced]);
      return presentLead(added ?? ((await services.db('leads').where({ accountId: row.id, platformLeadId }).first()) as LeadRow));
    }
    const ads = input.isOrganic ? { adId: null, adsetId: null, campaignId: null } : simulatedAdIds();
    const createdAt = new Date();
    const lead = { id: `test_${randomInt(1e9, 1e10)}${randomInt(1e5, 1e6)}`, formId, ...ads, createdAt };
    return services.db.transaction(async (trx) => {
      const [stored] = (await trx('leads')
        .insert({
          ...leadColumns(row, lead),
          formName: form.name,
          fields: JSON.stringify({ ...simulatedAnswers(form.questions, form.locale), ...given }),
          sourcePlatform: SOURCES[row.platform] ?? null,
          isTest: true,
          retrievalStatus: 'retrieved',
        })
        .returning('*')) as LeadRow[];
      await emitReceived(trx, [stored!]);
      return presentLead(stored!);
    });
  });
}
