import type { components } from '../../../generated/api.js';
import type { AutomationRecord } from './rows.js';

type Automation = components['schemas']['Automation'];

export function presentAutomation(row: AutomationRecord, warnings: Automation['warnings']): Automation {
  return {
    id: row.id,
    profileId: row.profileId,
    name: row.name,
    accountIds: row.accountIds,
    trigger: {
      type: row.triggerType,
      keywords: row.keywords,
      matchType: row.matchType,
      caseSensitive: row.caseSensitive,
      postIds: row.postIds,
    },
    actions: row.actions,
    active: row.active,
    priority: row.priority,
    stopOnMatch: row.stopOnMatch,
    cooldownSeconds: row.cooldownSeconds,
    oncePerPerson: row.oncePerPerson,
    stats: {
      triggeredCount: row.triggeredCount,
      succeededCount: row.succeededCount,
      failedCount: row.failedCount,
      lastTriggeredAt: row.lastTriggeredAt?.toISOString() ?? null,
    },
    warnings,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
