import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { AddressNotAllowedError } from '../../lib/address-guard.js';
import { NotFoundError, ProfileOutOfScopeError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import { firstProfileId } from '../accounts/api.js';
import { profileScope, type Principal } from '../auth/principal.js';
import { lockOwner } from '../auth/api.js';
import { emitEvent } from '../events/emit.js';
import { fanOut } from './dispatcher.js';
import { HookLimitReachedError, HookTestRateLimitedError, UrlNotAllowedError } from './errors.js';
import { type DeliveryRow, HookRow } from './models.js';
import { presentHook } from './present.js';

export const MAX_HOOKS_PER_OWNER = 20;

type Hook = components['schemas']['Hook'];

function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** 422 `url_not_allowed` unless every address of the host is public (or in an allowed range). */
async function assertDestinationAllowed(services: Services, url: string): Promise<void> {
  const host = new URL(url).hostname;
  try {
    await services.addressGuard.check(host);
  } catch (error) {
    throw new UrlNotAllowedError((error as Error).message, error instanceof AddressNotAllowedError);
  }
}

/** A restricted key reaches only hooks bound to profiles inside its own scope. */
function inScope(principal: Principal, hook: HookRow): boolean {
  const scope = profileScope(principal);
  if (scope === null) return true;
  return hook.profileIds !== null && hook.profileIds.every((id) => scope.includes(id));
}

/** The owner's hook, or 404; 403 when it covers profiles outside the caller's key. */
export async function findHook(db: Knex, principal: Principal, id: string, forUpdate = false): Promise<HookRow> {
  const query = HookRow.query(db).findOne({ id, ownerId: principal.ownerId });
  if (forUpdate) query.forUpdate();
  const hook = await query;
  if (!hook) throw new NotFoundError('webhook');
  if (!inScope(principal, hook)) {
    throw new ProfileOutOfScopeError('This webhook covers profiles outside the profiles this API key is restricted to.');
  }
  return hook;
}

export async function createHook(
  services: Services,
  principal: Principal,
  input: components['schemas']['HookCreate'],
): Promise<{ hook: HookRow; secret: string }> {
  await assertDestinationAllowed(services, input.url);
  const secret = input.secret ?? generateSecret();
  return services.db.transaction(async (trx) => {
    // Serialises hook creation per owner, so two parallel requests cannot both take the 20th place.
    await lockOwner(trx, principal.ownerId);
    const [counted] = await trx('hooks').where({ ownerId: principal.ownerId }).count<{ count: string }[]>('id as count');
    if (Number(counted?.count) >= MAX_HOOKS_PER_OWNER) {
      throw new HookLimitReachedError(MAX_HOOKS_PER_OWNER);
    }
    const hook = await HookRow.query(trx).insertAndFetch({
      id: newId('hook'),
      ownerId: principal.ownerId,
      url: input.url,
      events: input.events,
      profileIds: profileScope(principal),
      description: input.description ?? null,
      secretCiphertext: services.secrets.seal(secret),
    });
    return { hook, secret };
  });
}

export async function listHooks(db: Knex, principal: Principal, page: PageRequest): Promise<Page<Hook>> {
  const query = HookRow.query(db)
    .where({ ownerId: principal.ownerId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  const scope = profileScope(principal);
  // `<@`: the hook's profiles are all inside the key's; a hook for every profile (null) is outside any restriction.
  if (scope) query.whereNotNull('profileIds').whereRaw('profile_ids <@ ?::text[]', [scope]);
  if (page.after) query.where('id', '<', page.after);
  return toPage(await query, page, presentHook);
}

export async function updateHook(
  services: Services,
  principal: Principal,
  id: string,
  input: components['schemas']['HookUpdate'],
): Promise<HookRow> {
  if (input.url !== undefined) await assertDestinationAllowed(services, input.url);
  return services.db.transaction(async (trx) => {
    await findHook(trx, principal, id, true);
    const patch: Partial<HookRow> = { updatedAt: new Date() };
    if (input.url !== undefined) patch.url = input.url;
    if (input.events !== undefined) patch.events = input.events;
    if (input.description !== undefined) patch.description = input.description;
    if (input.active === true) Object.assign(patch, { active: true, disabledReason: null, failingSince: null });
    if (input.active === false) {
      patch.active = false;
      await failOpenDeliveries(trx, id);
    }
    const [hook] = await HookRow.query(trx).patch(patch).where({ id }).returning('*');
    return hook!;
  });
}

/** A paused or disabled hook gives up what it has not delivered yet. */
export async function failOpenDeliveries(trx: Knex, hookId: string): Promise<void> {
  await trx('deliveries')
    .where({ hookId })
    .whereIn('status', ['pending', 'retrying'])
    .update({ status: 'failed', nextAttemptAt: null, lockedUntil: null });
}

export async function deleteHook(db: Knex, principal: Principal, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    await findHook(trx, principal, id, true);
    await trx('hooks').where({ id }).delete();
  });
}

export async function rotateHookSecret(
  services: Services,
  principal: Principal,
  id: string,
  overlapSeconds: number,
): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
  return services.db.transaction(async (trx) => {
    const hook = await findHook(trx, principal, id, true);
    const secret = generateSecret();
    const previousSecretExpiresAt = new Date(Date.now() + overlapSeconds * 1000);
    await HookRow.query(trx)
      .patch({
        secretCiphertext: services.secrets.seal(secret),
        previousSecretCiphertext: overlapSeconds > 0 ? hook.secretCiphertext : null,
        previousSecretExpiresAt: overlapSeconds > 0 ? previousSecretExpiresAt : null,
        updatedAt: new Date(),
      })
      .where({ id });
    return { secret, previousSecretExpiresAt };
  });
}

/**
 * The profile a test ping names, so that it looks like the hook's real events: the hook's (first) profile, or
 * for a hook of every profile the owner's first one; none when the owner has no profile.
 */
async function testedProfile(trx: Knex, hook: HookRow): Promise<string | null> {
  if (hook.profileIds?.[0]) return hook.profileIds[0];
  return (await firstProfileId(trx, hook.ownerId)) ?? null;
}

/**
 * Queues one `webhook.test` delivery to this hook only. At most one per 30 seconds per hook: the check and the
 * stamp are one conditional UPDATE, so parallel requests cannot both pass.
 */
export async function testHook(services: Services, principal: Principal, id: string): Promise<DeliveryRow> {
  const interval = services.config.webhooks.testIntervalSeconds;
  return services.db.transaction(async (trx) => {
    const hook = await findHook(trx, principal, id);
    const stamped = await trx('hooks')
      .where({ id })
      .where((q) => q.whereNull('lastTestAt').orWhere('lastTestAt', '<=', trx.raw(`now() - interval '${interval} seconds'`)))
      .update({ lastTestAt: trx.fn.now() });
    if (stamped === 0) {
      const elapsed = (Date.now() - (hook.lastTestAt?.getTime() ?? 0)) / 1000;
      const retryAfter = Math.max(1, Math.ceil(interval - elapsed));
      throw new HookTestRateLimitedError(interval, retryAfter);
    }
    const data = { hookId: hook.id, message: 'This is a test delivery from Socialgate.', sentAt: new Date().toISOString() };
    const event = await emitEvent(trx, {
      ownerId: principal.ownerId,
      profileId: await testedProfile(trx, hook),
      name: 'webhook.test',
      data,
    });
    // The test goes to this hook alone, not to every hook subscribed to webhook.test.
    const [delivery] = await fanOut(trx, event, [hook], services.config.webhooks);
    return delivery!;
  });
}
