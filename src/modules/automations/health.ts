import type { components } from '../../../generated/api.js';
import { idOf } from '../../lib/ids.js';
import type { CapabilityName } from '../../platforms/capabilities/index.js';
import type { Platforms } from '../../platforms/registry.js';
import type { Services } from '../../services.js';
import { CapabilityUnsupportedError } from '../accounts/errors.js';
import type { AccountRow } from '../accounts/models.js';
import { accountsById, adapterAccount } from '../accounts/read.js';
import type { ActionType, AutomationAction, TriggerType } from './rows.js';

type Warning = components['schemas']['AutomationWarning'];

/** What a platform has when it brings the service each trigger's events (by its webhooks or the account's session). */
const SOURCE_CAPABILITIES: Record<TriggerType, CapabilityName[]> = {
  message_received: ['messaging', 'sessionMessaging'],
  comment_received: ['comments'],
};

const bringsEvents = (platforms: Platforms, platform: string, trigger: TriggerType) =>
  SOURCE_CAPABILITIES[trigger].some((name) => platforms.capability(platform, name) !== undefined);

/** The kind of incoming event each trigger fires on. */
const TRIGGER_EVENTS: Record<TriggerType, 'message' | 'comment'> = { message_received: 'message', comment_received: 'comment' };

/** The platform permissions each action needs, as the capability it acts through declares them (none for our own tags). */
const ACTION_SCOPES: Record<ActionType, (platforms: Platforms, platform: string) => readonly string[] | undefined> = {
  reply_message: (platforms, platform) => platforms.capability(platform, 'messaging')?.scopes,
  send_private_reply: (platforms, platform) => platforms.capability(platform, 'messaging')?.scopes,
  reply_comment: (platforms, platform) => platforms.capability(platform, 'comments')?.writeScopes,
  hide_comment: (platforms, platform) => platforms.capability(platform, 'comments')?.writeScopes,
  add_tag: () => undefined,
};

/** What the platform says a trigger's events and each action need, in that order, each once. */
function neededScopes(platforms: Platforms, platform: string, automation: Watched): Set<string> {
  return new Set([
    ...(platforms.capability(platform, 'webhooks')?.eventScopes?.[TRIGGER_EVENTS[automation.triggerType]] ?? []),
    ...automation.actions.flatMap((action) => ACTION_SCOPES[action.type](platforms, platform) ?? []),
  ]);
}

const SOURCE_NAMES: Record<TriggerType, string> = { message_received: 'messages', comment_received: 'comments' };

/** 422 `account_platform_unsupported` for an account whose platform never brings the trigger's events. */
export function assertSourceSupported(platforms: Platforms, account: AccountRow, trigger: TriggerType): void {
  if (bringsEvents(platforms, account.platform, trigger)) return;
  throw new CapabilityUnsupportedError(
    `${account.id} is a ${account.platform} account, whose platform does not send the service ${SOURCE_NAMES[trigger]}: a ${trigger} automation could never fire on it.`,
  );
}

interface Watched {
  accountIds: string[];
  triggerType: TriggerType;
  actions: AutomationAction[];
}

/**
 * Why an automation may not fire or act on each of its accounts. `live`: the platform is asked now whether it
 * still sends the account's events (at creation and update); else the answer of the service's last check is read.
 */
export async function warningsOf(services: Services, automations: Watched[], live = false): Promise<Warning[][]> {
  const accounts = new Map(
    (
      await accountsById(
        services.db,
        [...new Set(automations.flatMap((a) => a.accountIds))].map((id) => idOf('acc', id)),
      )
    ).map((row) => [row.id as string, row]),
  );
  const problems = new Map<string, string | null>();
  for (const row of accounts.values()) problems.set(row.id, live ? await subscriptionProblemNow(services, row) : row.platformProblem);
  return automations.map((automation) =>
    automation.accountIds.flatMap((accountId) => {
      const row = accounts.get(accountId);
      return row ? accountWarnings(services.platforms, row, automation, problems.get(accountId) ?? null) : [];
    }),
  );
}

function accountWarnings(platforms: Platforms, row: AccountRow, automation: Watched, subscriptionProblem: string | null): Warning[] {
  const warn = (code: Warning['code'], message: string, scope: string | null = null): Warning => ({
    accountId: row.id,
    code,
    message,
    scope,
  });
  if (!bringsEvents(platforms, row.platform, automation.triggerType)) {
    return [warn('source_unsupported', `${row.platform} does not send the service ${SOURCE_NAMES[automation.triggerType]}.`)];
  }
  const warnings: Warning[] = [];
  if (row.status !== 'connected') {
    warnings.push(
      warn('account_not_connected', `The account is ${row.status.replace('_', ' ')}: nothing arrives from it until it is connected again.`),
    );
  }
  if (subscriptionProblem)
    warnings.push(warn('webhook_subscription_missing', `${subscriptionProblem} Connect the account again to repair it.`));
  for (const scope of neededScopes(platforms, row.platform, automation)) {
    if (!row.scopes.includes(scope)) {
      warnings.push(warn('permission_missing', `The account was connected without ${scope}; connect it again and grant it.`, scope));
    }
  }
  return warnings;
}

/** The platform's answer now, where it can tell; the last recorded one when it cannot be asked. */
async function subscriptionProblemNow(services: Services, row: AccountRow): Promise<string | null> {
  const check = services.platforms.get(row.platform)?.webhooks?.subscriptionProblem;
  if (!check || row.status !== 'connected' || !row.credentialsCiphertext) return row.platformProblem;
  try {
    return await check(adapterAccount(row, services.secrets));
  } catch {
    return row.platformProblem;
  }
}
