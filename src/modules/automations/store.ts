import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { idOf, newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Platforms } from '../../platforms/registry.js';
import type { Services } from '../../services.js';
import { listedProfiles, type Principal, assertProfileInScope } from '../auth/principal.js';
import { lockProfile } from '../accounts/api.js';
import { findProfile } from '../accounts/profiles.js';
import { findAccount, profileAccounts } from '../accounts/read.js';
import { announceChange, automationCache } from './cache.js';
import { AutomationLimitReachedError, invalidMember } from './errors.js';
import { assertSourceSupported, warningsOf } from './health.js';
import { presentAutomation } from './present.js';
import { ACTION_TRIGGERS, type AutomationRecord, type TriggerType } from './rows.js';
import { assertSafePatterns } from './safe-patterns.js';

type Automation = components['schemas']['Automation'];
type AutomationCreate = components['schemas']['AutomationCreate'];
type AutomationUpdate = components['schemas']['AutomationUpdate'];
type TriggerInput = components['schemas']['AutomationTriggerInput'];

export const MAX_AUTOMATIONS_PER_PROFILE = 100;

/** The trigger with its defaults, as stored. */
function triggerColumns(trigger: TriggerInput) {
  return {
    triggerType: trigger.type,
    keywords: trigger.keywords ?? [],
    matchType: trigger.matchType ?? 'contains',
    caseSensitive: trigger.caseSensitive ?? false,
    postIds: trigger.postIds ?? [],
  };
}

/** What the schema cannot say: actions that fit the trigger, post ids only for comments. */
function assertCoherent(trigger: ReturnType<typeof triggerColumns>, actions: AutomationRecord['actions']): void {
  if (trigger.triggerType === 'message_received' && trigger.postIds.length > 0) {
    throw invalidMember('body/trigger/postIds', 'is only for comment_received triggers');
  }
  actions.forEach((action, index) => {
    if (!ACTION_TRIGGERS[action.type].includes(trigger.triggerType)) {
      throw invalidMember(`body/actions/${index}/type`, `${action.type} needs a ${ACTION_TRIGGERS[action.type].join(' or ')} trigger`);
    }
  });
}

/**
 * The accounts exist (404), are within the caller's key (403), of the profile (422) and their platform brings the
 * trigger's events (422).
 */
async function assertAccounts(
  db: Knex,
  platforms: Platforms,
  principal: Principal,
  profileId: string,
  accountIds: string[],
  trigger: TriggerType,
): Promise<void> {
  for (const row of await profileAccounts(db, principal, profileId, accountIds)) assertSourceSupported(platforms, row, trigger);
}

/** After a change commits: this process forgets its cached automations at once (the others on the NOTIFY). */
function forgetCached(services: Services): void {
  automationCache(services).invalidate();
}

export async function createAutomation(services: Services, principal: Principal, input: AutomationCreate): Promise<Automation> {
  const trigger = triggerColumns(input.trigger);
  assertCoherent(trigger, input.actions);
  await assertSafePatterns(trigger);
  const profile = await findProfile(services.db, principal, input.profileId);
  const created = await services.db.transaction(async (trx) => {
    // Serialises creation per profile, so two parallel requests cannot both take the 100th place.
    await lockProfile(trx, profile.id);
    await assertAccounts(trx, services.platforms, principal, profile.id, input.accountIds, trigger.triggerType);
    const [counted] = await trx('automations').where({ profileId: profile.id }).count<{ count: string }[]>('id as count');
    if (Number(counted?.count) >= MAX_AUTOMATIONS_PER_PROFILE) throw new AutomationLimitReachedError(MAX_AUTOMATIONS_PER_PROFILE);
    const [row] = (await trx('automations')
      .insert({
        id: newId('auto'),
        ownerId: principal.ownerId,
        profileId: profile.id,
        name: input.name,
        accountIds: input.accountIds,
        ...trigger,
        actions: JSON.stringify(input.actions),
        active: input.active ?? true,
        priority: input.priority ?? 0,
        stopOnMatch: input.stopOnMatch ?? false,
        cooldownSeconds: input.cooldownSeconds ?? 0,
        oncePerPerson: input.oncePerPerson ?? false,
      })
      .returning('*')) as AutomationRecord[];
    await announceChange(trx);
    return row!;
  });
  forgetCached(services);
  return presentAutomation(created, (await warningsOf(services, [created], true))[0]!);
}

/** The owner's automation, or 404; 403 when it is of a profile outside the caller's key. */
export async function findAutomation(db: Knex, principal: Principal, id: string, forUpdate = false): Promise<AutomationRecord> {
  const query = db('automations').where({ id, ownerId: principal.ownerId });
  if (forUpdate) query.forUpdate();
  const row = (await query.first()) as AutomationRecord | undefined;
  if (!row) throw new NotFoundError('automation');
  assertProfileInScope(principal, row.profileId);
  return row;
}

export async function getAutomation(services: Services, principal: Principal, id: string): Promise<Automation> {
  const row = await findAutomation(services.db, principal, id);
  return presentAutomation(row, (await warningsOf(services, [row]))[0]!);
}

export async function listAutomations(
  services: Services,
  principal: Principal,
  page: PageRequest,
  filters: { profileId?: string; accountId?: string; triggerType?: TriggerType; active?: boolean },
): Promise<Page<Automation>> {
  const profiles = await listedProfiles(services.db, principal, filters.profileId);
  const query = services
    .db('automations')
    .where({ ownerId: principal.ownerId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (profiles) query.whereIn('profileId', profiles);
  if (filters.accountId) {
    // The account filtered by is one the caller may read, as the profile is (404, 403).
    await findAccount(services.db, principal, idOf('acc', filters.accountId));
    query.whereRaw('account_ids @> ARRAY[?]::text[]', [filters.accountId]);
  }
  if (filters.triggerType) query.where({ triggerType: filters.triggerType });
  if (filters.active !== undefined) query.where({ active: filters.active });
  if (page.after) query.where('id', '<', page.after);
  const rows = (await query) as AutomationRecord[];
  const warnings = await warningsOf(services, rows);
  const byId = new Map(rows.map((row, index) => [row.id, warnings[index]!]));
  return toPage(rows, page, (row) => presentAutomation(row, byId.get(row.id)!));
}

export async function updateAutomation(services: Services, principal: Principal, id: string, input: AutomationUpdate): Promise<Automation> {
  // New patterns are proven safe before the automation is locked; the ones it keeps were when they were saved.
  if (input.trigger) await assertSafePatterns(triggerColumns(input.trigger));
  const updated = await services.db.transaction(async (trx) => {
    const current = await findAutomation(trx, principal, id, true);
    const trigger = input.trigger ? triggerColumns(input.trigger) : triggerColumns({ ...current, type: current.triggerType });
    const actions = input.actions ?? current.actions;
    assertCoherent(trigger, actions);
    const accountIds = input.accountIds ?? current.accountIds;
    if (input.accountIds || input.trigger)
      await assertAccounts(trx, services.platforms, principal, current.profileId, accountIds, trigger.triggerType);
    const [row] = (await trx('automations')
      .where({ id })
      .update({
        name: input.name ?? current.name,
        accountIds,
        ...trigger,
        actions: JSON.stringify(actions),
        active: input.active ?? current.active,
        priority: input.priority ?? current.priority,
        stopOnMatch: input.stopOnMatch ?? current.stopOnMatch,
        cooldownSeconds: input.cooldownSeconds ?? current.cooldownSeconds,
        oncePerPerson: input.oncePerPerson ?? current.oncePerPerson,
        updatedAt: trx.fn.now(),
      })
      .returning('*')) as AutomationRecord[];
    await announceChange(trx);
    return row!;
  });
  forgetCached(services);
  return presentAutomation(updated, (await warningsOf(services, [updated], true))[0]!);
}

/** Deletes the automation; runs already started finish (they carry their actions). */
export async function deleteAutomation(services: Services, principal: Principal, id: string): Promise<void> {
  await services.db.transaction(async (trx) => {
    await findAutomation(trx, principal, id, true);
    await trx('automations').where({ id }).delete();
    await announceChange(trx);
  });
  forgetCached(services);
}
